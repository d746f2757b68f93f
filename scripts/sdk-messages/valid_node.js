// Writes the Node Admin SDK's valid test messages in wire form: the validMessages of
// test/unit/messaging/messaging.spec.ts ("Options validation": expectedReq, else req, with the
// token the test adds), and the send() targetMessages, transcribed below (the prefixed topic as
// the SDK sends it).
// Usage: node scripts/sdk-messages/valid_node.js messaging.spec.ts Tests/Fixtures/sdk/node/valid
const fs = require('fs');
const [spec, out] = process.argv.slice(2);
const lines = fs.readFileSync(spec, 'utf8').split('\n');
const start = lines.findIndex((l) => /const validMessages: Array</.test(l));
const open = lines.findIndex((l, i) => i > start && /^\s*}> = \[$/.test(l));
const close = lines.findIndex((l, i) => i > open && /^    \];$/.test(l));
// The array's body is plain JavaScript (the type annotation is on the lines before it).
const validMessages = eval('[' + lines.slice(open + 1, close).join('\n') + ']');
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
fs.mkdirSync(out, { recursive: true });
for (const c of validMessages) {
  const m = { ...(c.expectedReq || c.req) };
  delete m.token;
  const message = Object.assign({ token: 'mock-token' }, m);
  fs.writeFileSync(`${out}/${slug(c.label)}.json`, JSON.stringify({ message }, null, 2) + '\n');
}
const targets = [['target-token', { token: 'mock-token' }], ['target-topic', { topic: 'mock-topic' }],
  ['target-prefixed-topic', { topic: 'mock-topic' }], ['target-condition', { condition: '"foo" in topics' }],
  ['target-fid', { fid: 'mock-fid' }]];
for (const [name, message] of targets) {
  fs.writeFileSync(`${out}/${name}.json`, JSON.stringify({ message }, null, 2) + '\n');
}
console.log(`${validMessages.length + targets.length} valid messages`);
