#!/usr/bin/env bash
# `fcmlint lsp` with a real editor's LSP client: Neovim (from Debian's packages), headless. It
# opens a payload with two mistakes, waits for the diagnostics, asks for completion and code
# actions, applies "fix all" and writes the file, which must then be what `fcmlint --fix` writes.
#   scripts/test-editor.sh [FCMLINT]   (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
bin="${1:-$repo/.build/debug/fcmlint}"
if ! command -v nvim >/dev/null 2>&1; then
  (apt-get install -y -qq neovim || (apt-get update -qq && apt-get install -y -qq neovim)) >/dev/null 2>&1 || true
fi
command -v nvim >/dev/null 2>&1 || { echo "editor test: SKIPPED (neovim could not be installed)"; exit 0; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '{"message": {"topic": "news", "data": {"count": 3},\n  "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "Hi"}}}}}\n' > "$work/welcome.json"
cp "$work/welcome.json" "$work/expected.json"
"$bin" --fix "$work/expected.json" >/dev/null || true

cat > "$work/client.lua" <<'LUA'
-- Neovim 0.7's API (Debian 12): start_client and buf_attach_client.
local out = assert(io.open(vim.env.OUT, "w"))
local id = vim.lsp.start_client({ name = "fcmlint", cmd = { vim.env.FCMLINT, "lsp" }, root_dir = vim.env.DIR })
vim.cmd("edit " .. vim.env.FILE)
vim.lsp.buf_attach_client(0, id)
local ok = vim.wait(15000, function() return #vim.diagnostic.get(0) >= 2 end, 50)
if not ok then out:write("no diagnostics\n") end
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  out:write(string.format("diagnostic %d:%d %s %s\n", d.lnum + 1, d.col + 1, code, d.source or ""))
end
-- Completion of the fields the message does not have yet, right after `{"message": {`.
local completion = vim.lsp.buf_request_sync(0, "textDocument/completion",
  { textDocument = vim.lsp.util.make_text_document_params(), position = { line = 0, character = 13 } }, 10000) or {}
for _, response in pairs(completion) do
  for _, item in ipairs(response.result or {}) do out:write("completion " .. item.label .. "\n") end
end
local params = { textDocument = vim.lsp.util.make_text_document_params(), range = { start = { line = 0, character = 0 }, ["end"] = { line = 2, character = 0 } },
  context = { diagnostics = {} } }
local responses = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 10000) or {}
for _, response in pairs(responses) do
  for _, action in ipairs(response.result or {}) do
    out:write("action " .. action.kind .. " " .. action.title .. "\n")
    if action.kind == "source.fixAll.fcmlint" then vim.lsp.util.apply_workspace_edit(action.edit, "utf-16") end
  end
end
vim.cmd("write")
local client = vim.lsp.get_client_by_id(id)
client.stop()
vim.wait(5000, function() return client.is_stopped() end, 50)
out:write("stopped " .. tostring(client.is_stopped()) .. "\n")
out:close()
vim.cmd("qa!")
LUA
OUT="$work/out.txt" FCMLINT="$bin" DIR="$work" FILE="$work/welcome.json" \
  timeout 60 nvim --headless -n -u NONE -i NONE -c "luafile $work/client.lua" >/dev/null 2>&1 || true
cat "$work/out.txt" 2>/dev/null || { echo "editor test: FAILED: Neovim wrote nothing"; exit 1; }
grep -q "diagnostic 1:49 data-string-values fcmlint" "$work/out.txt" || { echo "editor test: FAILED: no data-string-values diagnostic"; exit 1; }
grep -q "apns-aps-key" "$work/out.txt" || { echo "editor test: FAILED: no apns-aps-key diagnostic"; exit 1; }
grep -q "action source.fixAll.fcmlint Fix all fcmlint problems" "$work/out.txt" || { echo "editor test: FAILED: no fix-all action"; exit 1; }
grep -q "completion android" "$work/out.txt" || { echo "editor test: FAILED: no completion of the field android"; exit 1; }
! grep -q "completion topic" "$work/out.txt" || { echo "editor test: FAILED: completion offers a field already there"; exit 1; }
grep -q "stopped true" "$work/out.txt" || { echo "editor test: FAILED: the server did not stop"; exit 1; }
cmp -s "$work/welcome.json" "$work/expected.json" || { diff "$work/welcome.json" "$work/expected.json"; echo "editor test: FAILED: fix all differs from fcmlint --fix"; exit 1; }

# The same pipeline as the command line: a documentation page gets the diagnostics `--docs` gives
# it, an ignored file none, and a change of a config file (here one the project's config extends)
# reaches the open documents through the watcher the server registers. Neovim 0.7 has no file
# watcher of its own, so this client offers dynamic registration and watches what it is asked to
# with libuv, as Neovim 0.9 and later do by themselves.
project="$work/project"
mkdir -p "$project/docs" "$project/gen" "$project/push"
printf 'extends: shared.yml\nignore: ["gen/**"]\n' > "$project/.fcmlint.yml"
printf 'rules: {}\n' > "$project/shared.yml"
cp corpus/docs/push-guide.md "$project/docs/push.md"
cp "$work/expected.json" "$project/gen/ignored.json"
printf '{"message": {"topic": "news", "data": {"count": 3}}}\n' > "$project/push/count.json"
(cd "$project" && "$bin" --docs --format json docs/push.md || true) | python3 -c '
import json, sys
for d in json.load(sys.stdin)["diagnostics"]:
    print("page %d:%d %s" % (d["line"], d["column"], d["rule"]))' | sort > "$work/page-cli.txt"
cat > "$work/watch.lua" <<'LUA'
local out = assert(io.open(vim.env.OUT, "w"))
local capabilities = vim.lsp.protocol.make_client_capabilities()
capabilities.workspace.didChangeWatchedFiles = { dynamicRegistration = true }
local client_id
local watchers = {}
local function watch(path)
  local handle = vim.loop.new_fs_event()
  -- The callback runs in libuv's fast context, where vim.fn cannot be called.
  local folder, file = vim.fn.fnamemodify(path, ":h"), vim.fn.fnamemodify(path, ":t")
  handle:start(folder, {}, function(_, name)
    if name ~= file then return end
    vim.schedule(function()
      vim.lsp.get_client_by_id(client_id).notify("workspace/didChangeWatchedFiles", { changes = { { uri = vim.uri_from_fname(path), type = 2 } } })
    end)
  end)
  table.insert(watchers, handle)
end
local handlers = {
  ["client/registerCapability"] = function(_, result)
    for _, registration in ipairs(result.registrations) do
      for _, watcher in ipairs(registration.registerOptions.watchers) do
        local glob = watcher.globPattern
        local path = type(glob) == "table" and (vim.uri_to_fname(glob.baseUri) .. "/" .. glob.pattern) or glob
        if path == "**/.fcmlint.yml" then path = vim.env.DIR .. "/.fcmlint.yml" end
        out:write("watch " .. vim.fn.fnamemodify(path, ":t") .. "\n")
        watch(path)
      end
    end
    return vim.NIL
  end,
}
client_id = vim.lsp.start_client({ name = "fcmlint", cmd = { vim.env.FCMLINT, "lsp" }, root_dir = vim.env.DIR,
  capabilities = capabilities, handlers = handlers })
local function open(name)
  vim.cmd("edit " .. vim.env.DIR .. "/" .. name)
  vim.lsp.buf_attach_client(0, client_id)
  return vim.api.nvim_get_current_buf()
end
local page = open("docs/push.md")
vim.wait(15000, function() return #vim.diagnostic.get(page) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(page)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  out:write(string.format("page %d:%d %s\n", d.lnum + 1, d.col + 1, code))
end
local ignored = open("gen/ignored.json")
local count = open("push/count.json")
vim.wait(15000, function() return #vim.diagnostic.get(count) > 0 end, 50)
vim.wait(500)
out:write("ignored " .. #vim.diagnostic.get(ignored) .. "\n")
out:write("before " .. #vim.diagnostic.get(count) .. "\n")
local shared = assert(io.open(vim.env.DIR .. "/shared.yml", "w"))
shared:write("rules: {data-string-values: off}\n")
shared:close()
local changed = vim.wait(15000, function() return #vim.diagnostic.get(count) == 0 end, 50)
out:write("after " .. #vim.diagnostic.get(count) .. " " .. tostring(changed) .. "\n")
for _, handle in ipairs(watchers) do handle:stop() end
local client = vim.lsp.get_client_by_id(client_id)
client.stop()
vim.wait(5000, function() return client.is_stopped() end, 50)
out:close()
vim.cmd("qa!")
LUA
OUT="$work/watch.txt" FCMLINT="$bin" DIR="$project" \
  timeout 90 nvim --headless -n -u NONE -i NONE -c "luafile $work/watch.lua" >/dev/null 2>&1 || true
cat "$work/watch.txt" 2>/dev/null || { echo "editor test: FAILED: Neovim wrote nothing (watch)"; exit 1; }
grep "^page " "$work/watch.txt" | sort > "$work/page-lsp.txt"
[ -s "$work/page-cli.txt" ] || { echo "editor test: FAILED: fcmlint --docs found nothing in the page"; exit 1; }
cmp -s "$work/page-cli.txt" "$work/page-lsp.txt" || { diff "$work/page-cli.txt" "$work/page-lsp.txt"; echo "editor test: FAILED: the page's diagnostics differ from fcmlint --docs"; exit 1; }
grep -q "^ignored 0$" "$work/watch.txt" || { echo "editor test: FAILED: an ignored file got diagnostics"; exit 1; }
grep -q "^watch .fcmlint.yml$" "$work/watch.txt" && grep -q "^watch shared.yml$" "$work/watch.txt" || { echo "editor test: FAILED: no watcher registered for the configs"; exit 1; }
grep -q "^before 1$" "$work/watch.txt" && grep -q "^after 0 true$" "$work/watch.txt" || { echo "editor test: FAILED: a config change did not reach the open document"; exit 1; }
# The setup docs/integrations.md gives for Neovim 0.7, as written there, as Neovim's init.lua,
# with `fcmlint` found on PATH as a user's would be: a payload opened in the project gets its
# diagnostics.
awk '/<!-- editor-test: neovim-0.7 -->/ { found = 1; next } found && /^```lua/ { inside = 1; next } inside && /^```/ { exit } inside' \
  docs/integrations.md > "$work/init.lua"
[ -s "$work/init.lua" ] || { echo "editor test: FAILED: no Neovim 0.7 setup in docs/integrations.md"; exit 1; }
mkdir -p "$work/path"
ln -sf "$bin" "$work/path/fcmlint"
cat > "$work/documented.lua" <<'LUA'
local out = assert(io.open(vim.env.OUT, "w"))
vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 50)
out:write("filetype " .. vim.bo.filetype .. "\n")
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  out:write("documented " .. code .. "\n")
end
out:close()
vim.cmd("qa!")
LUA
printf 'rules: {}\n' > "$project/shared.yml"
(cd "$project" && OUT="$work/documented.txt" PATH="$work/path:$PATH" \
  timeout 60 nvim --headless -n -i NONE -u "$work/init.lua" -c "luafile $work/documented.lua" push/count.json >/dev/null 2>&1 || true)
cat "$work/documented.txt" 2>/dev/null || { echo "editor test: FAILED: Neovim wrote nothing (documented setup)"; exit 1; }
grep -q "^documented data-string-values$" "$work/documented.txt" || { echo "editor test: FAILED: the documented Neovim 0.7 setup gave no diagnostics"; exit 1; }
echo "editor test: Neovim $(nvim --version | head -n 1 | cut -d' ' -f2) with fcmlint lsp: diagnostics, completion, code actions, fix all as --fix; a page as --docs; an ignored file; a config change through a registered watcher; the documented Neovim 0.7 setup: ok"
