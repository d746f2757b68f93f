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
echo "editor test: Neovim $(nvim --version | head -n 1 | cut -d' ' -f2) with fcmlint lsp: diagnostics, completion, code actions, fix all as --fix: ok"
