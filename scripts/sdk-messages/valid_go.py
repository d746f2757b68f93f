#!/usr/bin/env python3
"""Writes the Go Admin SDK's valid test messages in wire form: validMessages[].want of
messaging/messaging_test.go (the map the test compares the request body with), converted from Go
map literals to JSON. Stdlib only.
Usage: python3 scripts/sdk-messages/valid_go.py messaging_test.go Tests/Fixtures/sdk/go/valid"""
import json, os, re, sys

src = open(sys.argv[1]).read()
out_dir = sys.argv[2]
# The test file's package-level values the want maps use.
CONSTANTS = {'badgeZero': '0', 'badge': '42'}


def skip_string(text, i):
    j = i + 1
    while text[j] != '"':
        j += 2 if text[j] == '\\' else 1
    return j + 1


def to_json(lit):
    """A Go composite literal of maps, slices and scalars, as JSON text."""
    out, stack, i = [], [], 0
    while i < len(lit):
        m = re.match(r'(map\[string\](?:interface\{\}|string|any)|\[\](?:interface\{\}|string|any|map\[string\]interface\{\}))\{', lit[i:])
        if m:
            is_slice = m.group(1).startswith('[]')
            stack.append(']' if is_slice else '}')
            out.append('[' if is_slice else '{')
            i += m.end()
            continue
        c = lit[i]
        if c == '"':
            j = skip_string(lit, i)
            out.append(lit[i:j])
            i = j
            continue
        if c == '{':
            stack.append('}')
        out.append(stack.pop() if c == '}' else c)
        i += 1
    text = ''.join(out)
    text = re.sub(r',(\s*[\]}])', r'\1', text)
    for name, value in CONSTANTS.items():
        text = re.sub(r'(?<!")\b%s\b(?!")' % name, value, text)
    return re.sub(r'float64\(([^)]*)\)', r'\1', text)


def block_end(start):
    depth, i = 0, start
    while True:
        c = src[i]
        if c == '"':
            i = skip_string(src, i)
            continue
        depth += c == '{'
        depth -= c == '}'
        i += 1
        if depth == 0:
            return i


begin = src.index('var validMessages = ')
end = src.index('var invalidMessages = ')
os.makedirs(out_dir, exist_ok=True)
count = 0
for m in re.finditer(r'\n\t\tname:\s*"([^"]+)",', src[begin:end]):
    at = begin + m.end()
    want = src.find('want: map[string]interface{}{', at)
    following = src.find('\n\t\tname:', at)
    if want < 0 or (0 <= following < want):
        continue
    brace = src.index('{', want + len('want: map[string]interface{}'))
    message = json.loads(to_json('map[string]interface{}' + src[brace:block_end(brace)]))
    name = re.sub(r'([a-z0-9])([A-Z])', r'\1-\2', re.sub(r'([A-Z]+)([A-Z][a-z])', r'\1-\2', m.group(1))).lower()
    with open(os.path.join(out_dir, name + '.json'), 'w') as out:
        out.write(json.dumps({'message': message}, indent=2) + '\n')
    count += 1
print('%d valid messages' % count)
