#!/usr/bin/env python3
"""Writes N valid, realistic FCM HTTP v1 send requests, 0.5-1.5 KB each, for benchmarks.

Usage: scripts/generate-requests.py [--seed S] N OUTPUT_DIR

Deterministic: the same seed and N give byte-identical files on every machine (Python's
random.Random with a fixed seed, no clock, no hashing of unordered sets). The files are split
evenly into ten folders, OUTPUT_DIR/part-0 .. part-9, so part-0 is a 10% sample of the set.

Each file is one send request {"message": {...}} as teams keep them: a token (50%), topic (30%) or
condition (20%) target; a notification with an image (40%), which every platform gets
consistently (notification.image, and often the same URL again in android.notification.image,
apns.fcm_options.image and webpush.notification.image), with "mutable-content": 1 in aps and an
alert for iOS; a notification without an image (30%); or a data-only background push with the
matching APNs headers (30%). Around these: Android config (priority, ttl, collapse key, channel,
colour...), APNs headers and aps, web push headers, notification and link, data maps, an analytics
label. Most files use the snake_case proto names, about one in six the lowerCamelCase JSON names
(the server accepts both); 80% are indented by 2 spaces, 10% by 4, 10% compact. Each file gets a
target size drawn from a triangular distribution over 500-1500 bytes (mode 500); a request larger
than 1500 bytes is drawn again, a smaller one gets data entries until it reaches its target. The
mean is about 1.05 KB: 20,000 files make about 21 MB.

Every request lints clean with the full built-in pack (compare.sh checks this on each run).
"""
import argparse
import json
import os
import random
import sys

TOPICS = ["news", "sports-scores", "weather.berlin", "promo_eu", "breaking~alerts", "orders",
          "chat-room-42", "release-notes", "deals.fr", "match_updates", "traffic.munich",
          "price-drops", "new_episodes", "team%20updates"]
TITLES = ["Your order has shipped", "Flash sale: 30% off", "New message from Alex",
          "Goal! 2-1 in the 78th minute", "Storm warning for tonight", "Your table is ready",
          "Weekly summary", "Price drop on your wishlist", "Nouveau message de Camille",
          "Neue Bestellung eingegangen", "Reminder: meeting at 15:00", "Your ride is arriving",
          "New episode available", "Payment received", "¡Oferta especial!", "Security alert"]
BODIES = ["Tap to track your package; it should arrive tomorrow before noon.",
          "Only today: everything in the summer collection is 30% off.",
          "Hey, are we still on for dinner on Friday? Let me know!",
          "Müller scores from the edge of the box. Full match report inside.",
          "Heavy rain and gusts up to 90 km/h expected after 21:00.",
          "Show this notification at the entrance to be seated.",
          "You walked 42 km this week — 12% more than last week.",
          "The item you saved is now €24.99 (was €34.99).",
          "Le colis n° 48213 sera livré demain entre 9 h et 12 h.",
          "Season 2, episode 5 is out now. Watch it before anyone spoils it.",
          "We received your payment of $120.00. Thank you!",
          "A new sign-in to your account from Chrome on Windows."]
HOSTS = ["cdn.example.com", "images.shop.example", "static.news.example.org", "media.example.net",
         "img.example.io"]
IMAGE_NAMES = ["banner", "hero", "product-4821", "match-highlight", "weather-map", "avatar",
               "promo_summer", "episode-cover"]
EXTENSIONS = ["png", "jpg", "jpeg", "png", "jpg", "png"]
COLORS = ["#1A73E8", "#E53935", "#43A047", "#FB8C00", "#8E24AA", "#00897B", "#3949AB", "#6D4C41"]
CHANNELS = ["orders", "promotions", "chat", "news", "alerts", "sports", "payments"]
SOUNDS = ["default", "default", "chime.caf", "ping.aiff"]
CATEGORIES = ["ORDER_UPDATE", "MESSAGE", "PROMO", "MATCH_EVENT"]
DATA_KEYS = ["order_id", "screen", "campaign_id", "deeplink", "sent_at", "locale", "ab_variant",
             "thread_id", "item_sku", "user_segment", "experiment", "source", "version", "ref",
             "category", "amount", "currency", "region", "event", "match_id", "team", "channel"]
WORDS = ["alpha", "berlin", "checkout", "orders/detail", "inbox", "summer-sale", "v2", "promo",
         "2025-11-21T10:00:00Z", "en-US", "fr-FR", "de-DE", "variant-b", "control", "push",
         "EUR", "USD", "eu-west", "home", "settings/notifications", "app://orders/48213"]
TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

# snake_case proto name -> lowerCamelCase JSON name, for the fields written here.
CAMEL = {
    "collapse_key": "collapseKey", "channel_id": "channelId", "click_action": "clickAction",
    "fcm_options": "fcmOptions", "analytics_label": "analyticsLabel",
    "notification_priority": "notificationPriority", "default_sound": "defaultSound",
    "validate_only": "validateOnly", "direct_boot_ok": "directBootOk",
}


class Request:
    def __init__(self, rng, camel):
        self.rng = rng
        self.camel = camel

    def k(self, name):
        """A field name in the file's spelling."""
        return CAMEL.get(name, name) if self.camel else name

    def token(self):
        r = self.rng
        return ("".join(r.choice(TOKEN_ALPHABET) for _ in range(22)) + ":APA91b"
                + "".join(r.choice(TOKEN_ALPHABET) for _ in range(134)))

    def condition(self):
        r = self.rng
        chosen = r.sample(TOPICS, r.randint(2, 5))
        t = ["'%s' in topics" % name for name in chosen]
        if len(t) == 2:
            return "%s %s %s" % (t[0], r.choice(["&&", "||"]), t[1])
        if len(t) == 3:
            return "%s && (%s || %s)" % tuple(t)
        if len(t) == 4:
            return "(%s || %s) && (%s || %s)" % tuple(t)
        return "%s && (%s || %s || %s || %s)" % tuple(t)

    def data_value(self):
        r = self.rng
        return r.choice(WORDS) if r.random() < 0.5 else "%s-%d" % (r.choice(WORDS), r.randrange(100000))

    def build(self):
        r = self.rng
        k = self.k
        kind = r.choices(["image", "alert", "data"], weights=[40, 30, 30])[0]
        target = r.choices(["token", "topic", "condition"], weights=[50, 30, 20])[0]
        msg = {}
        if target == "token":
            msg["token"] = self.token()
        elif target == "topic":
            msg["topic"] = r.choice(TOPICS)
        else:
            msg["condition"] = self.condition()

        image = "https://%s/push/%d/%s.%s" % (r.choice(HOSTS), r.randrange(10000), r.choice(IMAGE_NAMES), r.choice(EXTENSIONS))
        title, body = r.choice(TITLES), r.choice(BODIES)
        if kind != "data":
            notification = {"title": title, "body": body}
            if kind == "image":
                notification["image"] = image
            msg["notification"] = notification
        keys = r.sample(DATA_KEYS, r.randint(1, 3))
        msg["data"] = {key: self.data_value() for key in keys}

        # Android.
        android = {}
        if r.random() < 0.3:
            android[k("collapse_key")] = r.choice(CHANNELS)
        android["priority"] = "HIGH" if kind == "data" else r.choice(["HIGH", "NORMAL"])
        if r.random() < 0.5:
            android["ttl"] = "%ds" % r.choice([60, 300, 3600, 86400, 604800, 2419200])
        if kind != "data":
            an = {k("channel_id"): r.choice(CHANNELS)}
            if r.random() < 0.5:
                an["color"] = r.choice(COLORS)
            if r.random() < 0.3:
                an["icon"] = "ic_stat_notify"
            if r.random() < 0.3:
                an[k("click_action")] = "OPEN_DETAIL"
            if r.random() < 0.2:
                an["tag"] = "thread-%d" % r.randrange(1000)
            if r.random() < 0.2:
                an[k("notification_priority")] = r.choice(["PRIORITY_HIGH", "PRIORITY_DEFAULT"])
            if r.random() < 0.2:
                an[k("default_sound")] = True
            if kind == "image" and r.random() < 0.4:
                an["image"] = image
            android["notification"] = an
        msg["android"] = android

        # APNs.
        if kind == "data":
            msg["apns"] = {
                "headers": {"apns-push-type": "background", "apns-priority": "5"},
                "payload": {"aps": {"content-available": 1}},
            }
        else:
            headers = {"apns-priority": "10", "apns-push-type": "alert"}
            if r.random() < 0.3:
                headers["apns-collapse-id"] = "thread-%d" % r.randrange(1000)
            if r.random() < 0.2:
                headers["apns-expiration"] = str(1767225600 + r.randrange(86400 * 30))
            aps = {}
            if r.random() < 0.2:
                aps["alert"] = {"title": title, "body": body}
            aps["sound"] = r.choice(SOUNDS)
            if r.random() < 0.4:
                aps["badge"] = r.randrange(1, 20)
            if r.random() < 0.3:
                aps["thread-id"] = r.choice(CHANNELS)
            if r.random() < 0.2:
                aps["category"] = r.choice(CATEGORIES)
            if kind == "image":
                aps["mutable-content"] = 1
            apns = {"headers": headers, "payload": {"aps": aps}}
            if r.random() < 0.2:
                apns["payload"]["campaign"] = "c-%d" % r.randrange(1000)
            if kind == "image" and r.random() < 0.5:
                apns[k("fcm_options")] = {"image": image}
            msg["apns"] = apns

        # Web push.
        if kind != "data" and r.random() < 0.5:
            wn = {"icon": "https://%s/icons/app-192.png" % r.choice(HOSTS)}
            if kind == "image" and r.random() < 0.5:
                wn["image"] = image
            if r.random() < 0.2:
                wn["requireInteraction"] = True
            if r.random() < 0.2:
                wn["badge"] = "https://%s/icons/badge-72.png" % r.choice(HOSTS)
            msg["webpush"] = {
                "headers": {"TTL": str(r.choice([3600, 86400, 604800])), "Urgency": r.choice(["high", "normal", "low"])},
                "notification": wn,
                k("fcm_options"): {"link": "https://app.example.com/open/%d" % r.randrange(100000)},
            }

        if r.random() < 0.3:
            msg[k("fcm_options")] = {k("analytics_label"): "campaign_%d" % r.randrange(100)}
        request = {"message": msg}
        if r.random() < 0.05:
            request[k("validate_only")] = False
        return request


def render(request, style):
    if style == "compact":
        return json.dumps(request, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(request, ensure_ascii=False, indent=style) + "\n"


def generate(rng, low=500, high=1500, mode=500):
    """One request of a drawn target size, as UTF-8 bytes."""
    while True:
        target = int(rng.triangular(low, high, mode))
        req = Request(rng, camel=rng.random() < 1 / 6)
        request = req.build()
        style = rng.choices([2, 4, "compact"], weights=[80, 10, 10])[0]
        text = render(request, style).encode("utf-8")
        if len(text) > high:
            continue  # too large for the size class: draw again
        data = request["message"]["data"]
        extra = [key for key in DATA_KEYS if key not in data] + ["k%d" % i for i in range(100)]
        i = 0
        while len(text) < target:
            data[extra[i]] = req.data_value()
            i += 1
            longer = render(request, style).encode("utf-8")
            if len(longer) > high:
                del data[extra[i - 1]]
                break
            text = longer
        if len(text) >= low:
            return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=20251121)
    parser.add_argument("count", type=int)
    parser.add_argument("output")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    parts = 10
    total = 0
    for i in range(args.count):
        part = os.path.join(args.output, "part-%d" % (i * parts // args.count))
        os.makedirs(part, exist_ok=True)
        text = generate(rng)
        with open(os.path.join(part, "req-%06d.json" % i), "wb") as f:
            f.write(text)
        total += len(text)
    print("%d requests, %d bytes (%.1f MB), in %s" % (args.count, total, total / 1e6, args.output), file=sys.stderr)


if __name__ == "__main__":
    main()
