#!/usr/bin/env python3
"""Writes a message log: N send requests, one compact JSON document a line, each with its own id
in data.message_id ("m-0000001", the line number), and a seeded, known number of mistakes.

Usage: scripts/spark/generate-log.py [--seed S] [--long-bytes B] N OUTPUT [EXPECTED_JSON]

Deterministic: the same seed and N give a byte-identical log. Each mistake is reported by
fcmlint as exactly one finding of one rule, so the expected count of each rule is the number of
lines given its mistake, alone or among the four (written to EXPECTED_JSON, with the ids of the
lines over the size limit, and printed):

  topic-name          the topic written "/topics/NAME"                  1% of lines
  data-string-values  one data value a number, not a string             2%
  target-exactly-one  a token and a topic both                          0.5%
  android-ttl         android.ttl "3600" (no "s")                       0.5%
  apns-flag-off       "content-available": 0 in aps                     0.3% (a warning)
  json-syntax         the line cut short after its id (a writer died)   0.1%
  json-syntax         the line padded past --long-bytes (default 20000) 0.01%, at least 1
  (four at once)      topic-name, data-string-values, android-ttl and   0.05%: the worst messages
                      apns-flag-off in one message

Run fcmlint with --max-file-size below --long-bytes (16K: the longest clean line is under 1 KB)
so the padded lines are over the limit. The other lines lint clean.
"""
import argparse
import json
import random
import sys

TOPICS = ["news", "sports-scores", "weather.berlin", "promo_eu", "orders", "chat-room-42"]
TITLES = ["Your order has shipped", "Flash sale: 30% off", "New message from Alex",
          "Goal! 2-1 in the 78th minute", "Storm warning for tonight", "Nouveau message de Camille",
          "¡Oferta especial!", "Payment received"]
BODIES = ["Tap to track your package; it should arrive tomorrow before noon.",
          "Only today: everything in the summer collection is 30% off.",
          "Heavy rain and gusts up to 90 km/h expected after 21:00.",
          "The item you saved is now €24.99 (was €34.99).",
          "We received your payment of $120.00. Thank you!"]
CHANNELS = ["orders", "promotions", "chat", "news", "alerts"]
TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"

# (rule, name, share of lines); json-syntax counts both of its mistakes.
MISTAKES = [
    ("topic-name", "topic-prefix", 0.01),
    ("data-string-values", "data-number", 0.02),
    ("target-exactly-one", "two-targets", 0.005),
    ("android-ttl", "ttl-without-unit", 0.005),
    ("apns-flag-off", "content-available-0", 0.003),
    ("json-syntax", "cut-short", 0.001),
    ("json-syntax", "over-limit", 0.0001),
    (None, "four-at-once", 0.0005),
]
FOUR = {"topic-prefix", "data-number", "ttl-without-unit", "content-available-0"}


def message(rng, i, mistakes):
    mid = "m-%07d" % i
    msg = {}
    kind = rng.random()
    if "topic-prefix" in mistakes or (not mistakes - {None} and kind < 0.3):
        msg["topic"] = ("/topics/" if "topic-prefix" in mistakes else "") + rng.choice(TOPICS)
    else:
        msg["token"] = "".join(rng.choice(TOKEN_CHARS) for _ in range(rng.randint(140, 163)))
    if "two-targets" in mistakes:
        msg["topic"] = rng.choice(TOPICS)
    data = {"message_id": mid, "campaign": "c-%d" % rng.randint(1, 500), "screen": rng.choice(["home", "order", "chat"])}
    if "data-number" in mistakes:
        data["badge_count"] = rng.randint(1, 99)
    msg["data"] = data
    if rng.random() < 0.7:
        msg["notification"] = {"title": rng.choice(TITLES), "body": rng.choice(BODIES)}
    android = {"priority": rng.choice(["high", "normal"])}
    android["ttl"] = "3600" if "ttl-without-unit" in mistakes else "%ds" % rng.choice([60, 3600, 86400])
    if "notification" in msg:
        android["notification"] = {"channel_id": rng.choice(CHANNELS)}
    msg["android"] = android
    aps = {"content-available": 0} if "content-available-0" in mistakes else {}
    if "notification" in msg:
        aps["sound"] = "default"
    if aps:
        msg["apns"] = {"payload": {"aps": aps}}
    line = json.dumps({"message": msg}, ensure_ascii=False, separators=(",", ":"))
    if "cut-short" in mistakes:
        # Cut after the id, so the id can still be read (fcmlint reads up to the mistake).
        line = line[: rng.randint(line.index(mid) + len(mid) + 1, len(line) - 5)]
    return line


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--long-bytes", type=int, default=20000)
    parser.add_argument("count", type=int)
    parser.add_argument("output")
    parser.add_argument("expected", nargs="?")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n = args.count
    # Which line gets which mistake: disjoint sets of line numbers drawn once, so the counts are exact.
    lines = list(range(1, n + 1))
    rng.shuffle(lines)
    assigned, start = {}, 0
    for _, name, share in MISTAKES:
        k = max(1, round(n * share))
        for i in lines[start:start + k]:
            assigned[i] = name
        start += k
    expected = {"messages": n, "rules": {}, "over_limit_ids": []}
    with open(args.output, "w", encoding="utf-8") as out:
        for i in range(1, n + 1):
            mistake = assigned.get(i)
            line = message(rng, i, FOUR if mistake == "four-at-once" else {mistake})
            if mistake == "over-limit":
                # A clean message made too long: a data value that fills the line past the limit.
                doc = json.loads(line)
                doc["message"]["data"]["blob"] = "x" * args.long_bytes
                line = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
                expected["over_limit_ids"].append("m-%07d" % i)
            out.write(line + "\n")
    tally = {name: sum(1 for m in assigned.values() if m == name) for _, name, _ in MISTAKES}
    for rule, name, _ in MISTAKES:
        if rule:
            both = tally["four-at-once"] if name in FOUR else 0
            expected["rules"][rule] = expected["rules"].get(rule, 0) + tally[name] + both
    text = json.dumps(expected, indent=1, sort_keys=True)
    if args.expected:
        with open(args.expected, "w") as f:
            f.write(text + "\n")
    print(json.dumps(expected["rules"], sort_keys=True))


if __name__ == "__main__":
    sys.exit(main())
