#!/usr/bin/env python3
"""Writes the Java Admin SDK's valid test messages in wire form: the maps MessageTest.java gives
to assertJsonEquals (what the SDK's JSON must equal), read by a small evaluator of the
ImmutableMap / ImmutableList / BigDecimal expressions and the local variables they use. Stdlib only.
Usage: python3 scripts/sdk-messages/valid_java.py MessageTest.java Tests/Fixtures/sdk/java/valid"""
import json, os, re, sys

src = open(sys.argv[1]).read()
out_dir = sys.argv[2]
CONSTANTS = {m.group(1): m.group(2) for m in re.finditer(r'static final String (\w+) = "([^"]*)";', src)}
TOKEN = re.compile(r'\s*(?:(?P<str>"(?:\\.|[^"\\])*")|(?P<num>-?\d+(?:\.\d+)?[LlDdFf]?)|(?P<id>[A-Za-z_]\w*)|(?P<p>[(),.<>?\[\]]))')


class Unsupported(Exception):
    pass


def tokens(text):
    out, i = [], 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if not m:
            if text[i:].strip() == '':
                break
            raise Unsupported('cannot read ' + text[i:i + 20])
        i = m.end()
        out += [(k, m.group(k)) for k in ('str', 'num', 'id', 'p') if m.group(k) is not None]
    return out


class Parser:
    def __init__(self, toks, env):
        self.toks, self.i, self.env = toks, 0, env

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def eat(self, want=None):
        tok = self.toks[self.i]
        if want and tok[1] != want:
            raise Unsupported('expected %s, found %s' % (want, tok[1]))
        self.i += 1
        return tok

    def type_arguments(self):
        if self.peek()[1] == '<':
            depth = 0
            while True:
                v = self.eat()[1]
                depth += v == '<'
                depth -= v == '>'
                if depth == 0:
                    return

    def arguments(self):
        self.eat('(')
        args = []
        if self.peek()[1] == ')':
            self.eat()
            return args
        while True:
            args.append(self.expression())
            v = self.eat()[1]
            if v == ')':
                return args
            if v != ',':
                raise Unsupported('arguments')

    def expression(self):
        kind, v = self.eat()
        if kind == 'str':
            return json.loads(v)
        if kind == 'num':
            n = v.rstrip('LlDdFf')
            return float(n) if '.' in n else int(n)
        if v in ('true', 'false'):
            return v == 'true'
        if v == 'new':
            cls, args = self.eat()[1], None
            args = self.arguments()
            if cls == 'BigDecimal':   # new BigDecimal(unscaled, scale) or new BigDecimal(n)
                return round(int(args[0]) / 10 ** args[1], 12) if len(args) == 2 else args[0]
            if cls == 'BigInteger':
                return int(args[0])
            raise Unsupported('new ' + cls)
        if v == 'BigDecimal' and self.peek()[1] == '.':
            self.eat('.')
            self.eat('valueOf')
            return self.arguments()[0]
        if v in ('ImmutableMap', 'ImmutableList'):
            self.eat('.')
            self.type_arguments()
            method = self.eat()[1]
            if method == 'of':
                args = self.arguments()
                return list(args) if v == 'ImmutableList' else {args[i]: args[i + 1] for i in range(0, len(args), 2)}
            if method != 'builder':
                raise Unsupported(method)
            self.arguments()
            value = {} if v == 'ImmutableMap' else []
            while self.peek()[1] == '.':
                self.eat('.')
                call = self.eat()[1]
                args = self.arguments()
                if call == 'put':
                    value[args[0]] = args[1]
                elif call == 'putAll':
                    value.update(args[0])
                elif call == 'add':
                    value.append(args[0])
                elif call == 'build':
                    break
                else:
                    raise Unsupported(call)
            return value
        if v in self.env:
            return self.env[v]
        if v in CONSTANTS:
            return CONSTANTS[v]
        raise Unsupported('unknown name ' + v)


def statements(body):
    out, cur, i, depth = [], '', 0, 0
    while i < len(body):
        c = body[i]
        if c == '"':
            j = i + 1
            while body[j] != '"':
                j += 2 if body[j] == '\\' else 1
            cur += body[i:j + 1]
            i = j + 1
            continue
        depth += c in '({'
        depth -= c in ')}'
        if c == ';' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    return out


os.makedirs(out_dir, exist_ok=True)
count = 0
for m in re.finditer(r'@Test\s*\n\s*public void (\w+)\(\) throws IOException \{', src):
    start, depth, i = m.end(), 1, m.end()
    while depth:
        depth += src[i] == '{'
        depth -= src[i] == '}'
        i += 1
    body = re.sub(r'//[^\n]*', '', src[start:i - 1])
    env, expected = {}, []
    try:
        for statement in statements(body):
            statement = ' '.join(statement.split())
            assign = re.match(r'^(?:[\w.]+(?:<[^=]*>)?\s+)?(\w+)\s*=\s*(.*)$', statement, re.S)
            if assign and re.match(r'(ImmutableMap|ImmutableList|new BigDecimal)', assign.group(2)):
                env[assign.group(1)] = Parser(tokens(assign.group(2)), env).expression()
            elif statement.startswith('assertJsonEquals('):
                parser = Parser(tokens(statement[len('assertJsonEquals'):]), env)
                parser.eat('(')
                expected.append(parser.expression())
    except Unsupported as e:
        print('skipped %s: %s' % (m.group(1), e), file=sys.stderr)
        continue
    for k, message in enumerate(expected):
        name = re.sub(r'^test-', '', re.sub(r'([a-z0-9])([A-Z])', r'\1-\2', m.group(1)).lower())
        name += '' if len(expected) == 1 else '-%d' % (k + 1)
        with open(os.path.join(out_dir, name + '.json'), 'w') as out:
            out.write(json.dumps({'message': message}, indent=2) + '\n')
        count += 1
print('%d valid messages' % count)
