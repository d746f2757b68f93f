#!/usr/bin/env python3
"""Writes Tests/Fixtures/sdk/<sdk>/invalid/*.json and Tests/Fixtures/sdk/manifest.tsv from the
Firebase Admin SDKs' own unit-test messages, hand-transcribed below into the REST (HTTP v1) wire
form. Each case names the rule(s) meant to report it, the SDK test it comes from and the SDK's
error text. The valid messages (Tests/Fixtures/sdk/<sdk>/valid/) are the SDKs' expected requests,
written by valid_node.js, valid_go.py and valid_java.py (Python's come from python_sdk.py, below),
and are listed in VALID. Run from the repository root: python3 scripts/sdk-messages/generate.py
Stdlib only. The SDK sources: firebase-admin-node test/unit/messaging/messaging.spec.ts,
firebase-admin-go messaging/messaging_test.go, firebase-admin-java
src/test/java/com/google/firebase/messaging/MessageTest.java."""
import json, os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
FIX = os.path.join(ROOT, 'Tests', 'Fixtures', 'sdk')

class RawJSON(str):
    """A message written as JSON text (for duplicate keys, which a dict cannot hold)."""


CASES = []   # (sdk, name, message, rules, source, error)
VALID = []   # (sdk, name, source)
PY_VALID = []   # (name, wire message, source): written by main()

# Errors fcmlint keeps on messages an SDK's tests encode as valid, each because FCM or the device
# fails on the value although the SDK passes it on unchecked (see Tests/Fixtures/sdk/README.md).
ALLOWED = {
    # Go's placeholder condition: not a condition at all; FCM answers "Invalid condition expression provided."
    ('go', 'condition-only'): ['condition-syntax'],
    # Go's placeholder image "http://image.jpg": "image.jpg" is a host name whose last label is a
    # file extension, not a top-level domain; the issue keeps this an error.
    ('go', 'notification-message'): ['image-extension-android'],
    ('go', 'android-notification-message'): ['image-extension-android'],
    ('go', 'apns-alert-string'): ['image-extension'],
    # Java's ttl of 30 days: the lifespan page says "The value must be a duration from 0 to
    # 2,419,200 seconds (28 days)"; the Java SDK checks only that it is not negative.
    ('java', 'android-message-with-notification'): ['android-ttl'],
    # Java's apns.fcm_options.image without "mutable-content": 1: iOS never runs the service
    # extension, so the image silently does not show (the round-one contract keeps this an error).
    ('java', 'image-in-apns-notification'): ['apns-image-mutable-content'],
    # Python's placeholder condition "value", and an APNs image without mutable-content, as above.
    ('python', 'message--empty-message-0-4'): ['condition-syntax'],
    ('python', 'fcm-option--fcm-options-0-2'): ['apns-image-mutable-content'],
}


def case(sdk, name, message, rules, source, error):
    CASES.append((sdk, name, message, rules, source, error))


def slug(value):
    text = json.dumps(value) if not isinstance(value, str) else value
    text = re.sub(r'[^A-Za-z0-9]+', '-', text).strip('-').lower()
    return text or 'empty'


# JSON values standing for the SDK tests' non-object arguments. NaN has no JSON form and is left
# out; null is proto3 JSON's "unset" for a message field, which FCM accepts, so it is left out
# where the field is a message (see README.md).
NOT_OBJECTS = [0, 1, True, False, '', 'string']

# ---------------------------------------------------------------- Node
N = 'node/test/unit/messaging/messaging.spec.ts'

for i, m in enumerate([{}, {'token': None}, {'token': ''}, {'topic': None}, {'topic': ''},
                       {'condition': None}, {'condition': ''}, {'fid': None}, {'fid': ''}]):
    name = 'no-target' if not m else 'no-target-%s-%s' % (list(m)[0], 'null' if list(m.values())[0] is None else 'empty')
    extra = {'topic': ['topic-name'], 'condition': ['condition-syntax']}.get(list(m)[0], []) if m and list(m.values())[0] == '' else []
    case('node', name, m, ['target-exactly-one'] + extra,
         N + ':319 send() noTarget', 'Exactly one of fid, topic, token or condition is required')
for m in [{'token': 'a', 'topic': 'b'}, {'token': 'a', 'condition': 'b'}, {'condition': 'a', 'topic': 'b'},
          {'token': 'a', 'topic': 'b', 'condition': 'c'}, {'fid': 'a', 'token': 'b'}, {'fid': 'a', 'topic': 'b'},
          {'fid': 'a', 'condition': 'b'}, {'fid': 'a', 'token': 'b', 'topic': 'c', 'condition': 'd'}]:
    case('node', 'multiple-targets-' + '-'.join(m), m, ['target-exactly-one'],
         N + ':335 send() multipleTargets', 'Exactly one of fid, topic, token or condition is required')
for t in ['/topics/', '/foo/bar', 'foo bar']:
    case('node', 'topic-' + slug(t), {'topic': t}, ['topic-name'], N + ':361 send() invalidTopics', 'Malformed topic name')

C = {'condition': 'topic-name'}   # the Node tests' own target (not a valid condition: condition-syntax also reports it)
IMAGES = ['', 'a', 'foo', 'image.jpg']
for u in IMAGES:
    case('node', 'notification-image-' + slug(u), dict(C, notification={'image': u}), ['image-url'],
         N + ':1626 invalidImages (notification.imageUrl)', 'notification.imageUrl must be a valid URL string')
# ttl is milliseconds in the Node API; the strings are what a hand-written request would carry.
# '1s' is a valid wire ttl (the SDK rejects it only because its API takes a number) and is left out.
for t in ['', 'abc', '123', '-123s', '1.2.3s', 'As', 's', '-0.001s']:
    case('node', 'android-ttl-' + slug(t), dict(C, android={'ttl': t}), ['android-ttl'],
         N + ':1641 invalidTtls' + (' (-1 ms)' if t == '-0.001s' else ''), 'TTL must be a non-negative duration in milliseconds')
COLORS = ['', 'foo', '123', '#AABBCX', '112233', '#11223']
for c in COLORS:
    case('node', 'android-color-' + slug(c), dict(C, android={'notification': {'color': c}}), ['android-color'],
         N + ':1656 invalidColors', 'android.notification.color must be in the form #RRGGBB')
for u in IMAGES:
    case('node', 'android-image-' + slug(u), dict(C, android={'notification': {'image': u}}), ['image-url'],
         N + ':1673 invalidImages (android.notification.imageUrl)', 'android.notification.imageUrl must be a valid URL string')
case('node', 'android-title-loc-args', dict(C, android={'notification': {'title_loc_args': ['foo']}}), ['android-loc-args'],
     N + ':1689 android titleLocArgs without titleLocKey', 'titleLocKey is required when specifying titleLocArgs')
case('node', 'android-body-loc-args', dict(C, android={'notification': {'body_loc_args': ['foo']}}), ['android-loc-args'],
     N + ':1703 android bodyLocArgs without bodyLocKey', 'bodyLocKey is required when specifying bodyLocArgs')
case('node', 'android-vibrate-null', dict(C, android={'notification': {'vibrate_timings': [None, '0.5s']}}), ['field-type'],
     N + ':1717 invalidVibrateTimings [null, 500]', 'android.notification.vibrateTimingsMillis must be non-negative durations in milliseconds')
case('node', 'android-vibrate-negative', dict(C, android={'notification': {'vibrate_timings': ['-0.1s']}}), ['android-negative-value'],
     N + ':1717 invalidVibrateTimings [-100]', 'android.notification.vibrateTimingsMillis must be non-negative durations in milliseconds')
case('node', 'android-vibrate-empty', dict(C, android={'notification': {'vibrate_timings': []}}), ['empty-value'],
     N + ':1735 empty vibrateTimingsMillis array', 'android.notification.vibrateTimingsMillis must be a non-empty array of numbers')
for c in COLORS:
    case('node', 'android-light-color-' + slug(c),
         dict(C, android={'notification': {'light_settings': {'color': c, 'light_on_duration': '0.1s', 'light_off_duration': '0.8s'}}}),
         ['android-light-settings', 'field-type'], N + ':1749 invalidColors (lightSettings.color)',
         'android.notification.lightSettings.color must be in the form #RRGGBB or #RRGGBBAA format')
AABBCC = {'red': 0.6666667, 'green': 0.73333335, 'blue': 0.8, 'alpha': 1}
case('node', 'android-light-on-negative',
     dict(C, android={'notification': {'light_settings': {'color': AABBCC, 'light_on_duration': '-0.001s', 'light_off_duration': '0.8s'}}}),
     ['android-negative-value', 'android-light-settings'], N + ':1769 negative light on duration',
     'android.notification.lightSettings.lightOnDurationMillis must be a non-negative duration in milliseconds')
case('node', 'android-light-off-negative',
     dict(C, android={'notification': {'light_settings': {'color': AABBCC, 'light_on_duration': '0.1s', 'light_off_duration': '-0.8s'}}}),
     ['android-negative-value', 'android-light-settings'], N + ':1788 negative light off duration',
     'android.notification.lightSettings.lightOffDurationMillis must be a non-negative duration in milliseconds')
for v in [-0.1, 1.1]:
    case('node', 'apns-sound-volume-' + slug(v), dict(C, apns={'payload': {'aps': {'sound': {'name': 'default', 'volume': v}}}}),
         ['apns-aps-value'], N + ':1808 invalidVolumes', 'volume must be in the interval [0, 1]')
for key, line, err in [('title-loc-args', 1829, 'titleLocKey is required when specifying titleLocArgs'),
                       ('subtitle-loc-args', 1847, 'subtitleLocKey is required when specifying subtitleLocArgs'),
                       ('loc-args', 1865, 'locKey is required when specifying locArgs')]:
    case('node', 'apns-alert-' + key, dict(C, apns={'payload': {'aps': {'alert': {key: ['foo']}}}}), ['apns-alert-loc-args'],
         N + ':%d apns %s without its key' % (line, key), err)
for v in NOT_OBJECTS:
    for where, wrap, err in [('android', lambda v: {'android': v}, 'android must be a non-null object'),
                             ('android-notification', lambda v: {'android': {'notification': v}}, 'android.notification must be a non-null object'),
                             ('apns', lambda v: {'apns': v}, 'apns must be a non-null object'),
                             ('webpush', lambda v: {'webpush': v}, 'webpush must be a non-null object'),
                             ('data', lambda v: {'data': v}, 'data must be a non-null object'),
                             ('fcm-options', lambda v: {'fcm_options': v}, 'fcmOptions must be a non-null object'),
                             ('android-fcm-options', lambda v: {'android': {'fcm_options': v}}, 'fcmOptions must be a non-null object'),
                             ('apns-fcm-options', lambda v: {'apns': {'fcm_options': v}}, 'fcmOptions must be a non-null object')]:
        case('node', 'not-object-%s-%s' % (where, slug(v)), dict(wrap(v), topic='test'), ['field-type'],
             N + ':1883 invalidObjects', err)
for u in IMAGES:
    case('node', 'apns-image-' + slug(u), {'apns': {'fcm_options': {'image': u}}, 'topic': 'test'}, ['image-url'],
         N + ':1934 invalidImages (apns.fcmOptions.imageUrl)', 'imageUrl must be a valid URL string')
for label, m, rules in [('data', {'data': {'k1': True}}, ['data-string-values']),
                        ('android.data', {'android': {'data': {'k1': True}}}, ['data-string-values']),
                        ('webpush.data', {'webpush': {'data': {'k1': True}}}, ['data-string-values']),
                        ('webpush.headers', {'webpush': {'headers': {'k1': True}}}, ['webpush-header-value']),
                        ('apns.headers', {'apns': {'headers': {'k1': True}}}, ['apns-header-value', 'field-type'])]:
    case('node', 'non-string-' + slug(label), dict(m, token='token'), rules, N + ':1942 invalidDataMessages',
         label + ' must only contain string values')
for v in [0, 1, True, False]:
    case('node', 'live-activity-token-' + slug(v), {'apns': {'live_activity_token': v}, 'topic': 'test'}, ['field-type'],
         N + ':1959 invalidApnsLiveActivityTokens', 'apns.liveActivityToken must be a string value')
case('node', 'live-activity-token-empty', {'apns': {'live_activity_token': ''}, 'topic': 'test'}, ['empty-value'],
     N + ':1968 empty apns live activity token', 'apns.liveActivityToken must be a non-empty string')
for v in ['', 'payload', True, 1.23]:
    case('node', 'apns-payload-' + slug(v), {'apns': {'payload': v}, 'token': 'token'}, ['field-type'],
         N + ':1974 invalidApnsPayloads (payload)', 'apns.payload must be a non-null object')
for v in [None, '', 'payload', True, 1.23]:
    case('node', 'apns-aps-' + slug(v), {'apns': {'payload': {'aps': v}}, 'token': 'token'}, ['apns-aps-value'],
         N + ':1982 invalidApnsPayloads (aps)', 'apns.payload.aps must be a non-null object')
case('node', 'apns-aps-duplicate-mutable-content', {'apns': {'payload': {'aps': {'mutableContent': True, 'mutable-content': 1}}}, 'token': 'token'},
     ['apns-aps-key'], N + ':1989 APNS payload with duplicate fields', 'Multiple specifications for mutableContent in Aps')
for v in [None, [], True, 1.23]:
    case('node', 'apns-alert-' + slug(v), {'apns': {'payload': {'aps': {'alert': v}}}, 'token': 'token'}, ['apns-aps-value'],
         N + ':2003 invalidApnsAlerts', 'apns.payload.aps.alert must be a string or a non-null object')
for v in ['', None, [], True, 1.23]:
    case('node', 'apns-sound-' + slug(v), {'apns': {'payload': {'aps': {'sound': v}}}, 'token': 'token'}, ['apns-aps-value', 'empty-value'],
         N + ':2012 invalidApnsSounds (sound)', 'apns.payload.aps.sound must be a non-empty string or a non-null object')
for v in ['', None, [], True, 1.23]:
    case('node', 'apns-sound-name-' + slug(v), dict(C, apns={'payload': {'aps': {'sound': {'name': v}}}}),
         ['apns-critical-sound', 'apns-aps-value'], N + ':2019 invalidApnsSounds (critical sound name)',
         'apns.payload.aps.sound.name must be a non-empty string')

VALID += [('node', f[:-5], N + ':2039 validMessages (expectedReq, else req) and :370 targetMessages')
          for f in sorted(os.listdir(os.path.join(FIX, 'node', 'valid')))]

# ---------------------------------------------------------------- Go
G = 'go/messaging/messaging_test.go'
T = {'topic': 'topic'}
case('go', 'no-targets', {}, ['target-exactly-one'], G + ':779 NoTargets', 'exactly one of fid, token, topic or condition must be specified')
case('go', 'multiple-targets', {'token': 'token', 'topic': 'topic'}, ['target-exactly-one'], G + ':784 MultipleTargets',
     'exactly one of fid, token, topic or condition must be specified')
case('go', 'multiple-targets-with-fid', {'fid': 'fid', 'topic': 'topic'}, ['target-exactly-one'], G + ':792 MultipleTargetsWithFid',
     'exactly one of fid, token, topic or condition must be specified')
case('go', 'invalid-prefixed-topic-name', {'topic': '/topics/'}, ['topic-name'], G + ':800 InvalidPrefixedTopicName', 'malformed topic name')
case('go', 'invalid-topic-name', {'topic': 'foo*bar'}, ['topic-name'], G + ':807 InvalidTopicName', 'malformed topic name')
case('go', 'invalid-notification-image', dict(T, notification={'image': 'image.jpg'}), ['image-url'], G + ':814 InvalidNotificationImage',
     'invalid image URL: "image.jpg"')
case('go', 'invalid-android-ttl', dict(T, android={'ttl': '-10s'}), ['android-ttl'], G + ':823 InvalidAndroidTTL', 'ttl duration must not be negative')
case('go', 'invalid-android-priority', dict(T, android={'priority': 'not normal'}), ['enum-value'], G + ':832 InvalidAndroidPriority',
     "priority must be 'normal' or 'high'")
for n, c in [(1, '112233'), (2, '#112233X')]:
    case('go', 'invalid-android-color%d' % n, dict(T, android={'notification': {'color': c}}), ['android-color'],
         G + ' InvalidAndroidColor%d' % n, 'color must be in the #RRGGBB form')
case('go', 'invalid-android-title-loc-args', dict(T, android={'notification': {'title_loc_args': ['a1']}}), ['android-loc-args'],
     G + ' InvalidAndroidTitleLocArgs', 'titleLocKey is required when specifying titleLocArgs')
case('go', 'invalid-android-body-loc-args', dict(T, android={'notification': {'body_loc_args': ['a1']}}), ['android-loc-args'],
     G + ' InvalidAndroidBodyLocArgs', 'bodyLocKey is required when specifying bodyLocArgs')
case('go', 'invalid-android-image', dict(T, android={'notification': {'image': 'image.jpg'}}), ['image-url'],
     G + ' InvalidAndroidImage', 'invalid image URL: "image.jpg"')
for n, c in [(1, '112233'), (2, '#11223X'), (3, '#112234X')]:
    case('go', 'invalid-light-settings-color%d' % n, dict(T, android={'notification': {'light_settings': {'color': c}}}),
         ['android-light-settings', 'field-type'], G + ' InvalidLightSettingsColor%d' % n, 'color must be in #RRGGBB or #RRGGBBAA form')
G112233 = {'red': 0.06666667, 'green': 0.13333334, 'blue': 0.2, 'alpha': 1}
case('go', 'invalid-light-settings-on-duration',
     dict(T, android={'notification': {'light_settings': {'color': G112233, 'light_on_duration': '-0.001s', 'light_off_duration': '0s'}}}),
     ['android-negative-value'], G + ' InvalidLightSettingsOnDuration', 'lightOnDuration must not be negative')
case('go', 'invalid-light-settings-off-duration',
     dict(T, android={'notification': {'light_settings': {'color': G112233, 'light_on_duration': '0s', 'light_off_duration': '-0.001s'}}}),
     ['android-negative-value'], G + ' InvalidLightSettingsOffDuration', 'lightOffDuration must not be negative')
case('go', 'invalid-vibrate-timings', dict(T, android={'notification': {'vibrate_timings': ['0.1s', '-0.001s', '0.1s']}}),
     ['android-negative-value'], G + ' InvalidVibrateTimings', 'vibrateTimingMillis must not be negative')
# "multiple specifications": the SDK's struct field and a custom-data key write the same JSON key twice.
DUP = 'json-duplicate-key'
DUPLICATES = {
    'apns-multiple-aps': '{"message": {"apns": {"payload": {"aps": {"alert": "alert"}, "aps": {"key": "value"}}}, "topic": "topic"}}',
    'apns-multiple-alerts': '{"message": {"apns": {"payload": {"aps": {"alert": {}, "alert": "alert"}}}, "topic": "topic"}}',
    'apns-multiple-field-specifications': '{"message": {"apns": {"payload": {"aps": {"category": "category", "category": "category"}}}, "topic": "topic"}}',
    'multiple-sound-specifications': '{"message": {"apns": {"payload": {"aps": {"sound": "s", "sound": {"name": "s"}}}}, "topic": "topic"}}',
    'webpush-notification-multiple-field-specifications': '{"message": {"webpush": {"notification": {"dir": "ltr", "dir": "rtl"}}, "topic": "topic"}}',
}
for name, line, err in [('apns-multiple-aps', 'APNSMultipleAps', 'multiple specifications for the key "aps"'),
                        ('apns-multiple-alerts', 'APNSMultipleAlerts', 'multiple alert specifications'),
                        ('apns-multiple-field-specifications', 'APNSMultipleFieldSpecifications', 'multiple specifications for the key "category"'),
                        ('multiple-sound-specifications', 'MultipleSoundSpecifications', 'multiple sound specifications'),
                        ('webpush-notification-multiple-field-specifications', 'WebpushNotificationMultipleFieldSpecifications',
                         'multiple specifications for the key "dir"')]:
    case('go', name, RawJSON(DUPLICATES[name]), [DUP], G + ' ' + line, err)
for key, line, err in [('title-loc-args', 'InvalidAPNSTitleLocArgs', 'titleLocKey is required when specifying titleLocArgs'),
                       ('subtitle-loc-args', 'InvalidAPNSSubTitleLocArgs', 'subtitleLocKey is required when specifying subtitleLocArgs'),
                       ('loc-args', 'InvalidAPNSLocArgs', 'locKey is required when specifying locArgs')]:
    case('go', 'invalid-apns-' + key, dict(T, apns={'payload': {'aps': {'alert': {key: ['a1']}}}}), ['apns-alert-loc-args'], G + ' ' + line, err)
case('go', 'invalid-apns-image', dict(T, apns={'fcm_options': {'image': 'image.jpg'}}), ['image-url'], G + ' InvalidAPNSImage',
     'invalid image URL: "image.jpg"')
for name, v in [('volume-too-low', -0.1), ('volume-too-high', 1.1)]:
    case('go', name, dict(T, apns={'payload': {'aps': {'sound': {'name': 's', 'volume': v}}}}), ['apns-aps-value'],
         G + ' ' + ''.join(w.title() for w in name.split('-')), 'critical sound volume must be in the interval [0, 1]')
case('go', 'invalid-webpush-notification-direction', dict(T, webpush={'notification': {'dir': 'invalid'}}), ['webpush-notification-value'],
     G + ' InvalidWebpushNotificationDirection', "direction must be 'ltr', 'rtl' or 'auto'")
case('go', 'invalid-webpush-fcm-options-link', dict(T, webpush={'notification': {}, 'fcm_options': {'link': 'link'}}), ['webpush-link-https'],
     G + ' InvalidWebpushFcmOptionsLink', 'invalid link URL: "link"')
case('go', 'invalid-webpush-fcm-options-link-scheme', dict(T, webpush={'notification': {}, 'fcm_options': {'link': 'http://link.com'}}),
     ['webpush-link-https'], G + ' InvalidWebpushFcmOptionsLinkScheme', 'invalid link URL: "http://link.com"; want scheme: "https"')
VALID += [('go', f[:-5], G + ':53 validMessages (want)') for f in sorted(os.listdir(os.path.join(FIX, 'go', 'valid')))]

# ---------------------------------------------------------------- Java
J = 'java/src/test/java/com/google/firebase/messaging/MessageTest.java'
TT = {'topic': 'test-topic'}
case('java', 'message-without-target', {}, ['target-exactly-one'], J + ':45 testMessageWithoutTarget', 'Exactly one of token, fid, topic or condition must be specified')
for m in [{'token': 'token', 'fid': 'fid'}, {'token': 'token', 'topic': 'topic'}, {'fid': 'fid', 'condition': 'cond'},
          {'topic': 'topic', 'condition': 'cond'}, {'token': 'token', 'fid': 'fid', 'topic': 'topic', 'condition': 'cond'}]:
    case('java', 'multiple-targets-' + '-'.join(m), m, ['target-exactly-one'], J + ':62 testMultipleTargets',
         'Exactly one of token, fid, topic or condition must be specified')
for t in ['/topics/', '/foo/bar', 'foo bar']:
    case('java', 'invalid-topic-name-' + slug(t), {'topic': t}, ['topic-name'], J + ':94 testInvalidTopicNames', 'Malformed topic name')
case('java', 'android-notification-negative-count', dict(TT, android={'notification': {'notification_count': -1}}), ['android-negative-value'],
     J + ':295 testAndroidNotificationWithNegativeCount', 'notificationCount if specified must be zero or positive valued')
case('java', 'android-ttl-negative', dict(TT, android={'ttl': '-0.001s'}), ['android-ttl'], J + ':339 testInvalidAndroidConfig (setTtl(-1))',
     'TTL must not be negative')
for c in ['', 'foo', '123', '#AABBCK']:
    case('java', 'android-color-' + slug(c), dict(TT, android={'notification': {'color': c}}), ['android-color'],
         J + ':346 testInvalidAndroidConfig', 'color must be in the form #RRGGBB')
case('java', 'android-body-loc-args', dict(TT, android={'notification': {'body_loc_args': ['foo']}}), ['android-loc-args'],
     J + ':350 testInvalidAndroidConfig', 'bodyLocKey is required when specifying bodyLocArgs')
case('java', 'android-title-loc-args', dict(TT, android={'notification': {'title_loc_args': ['foo']}}), ['android-loc-args'],
     J + ':351 testInvalidAndroidConfig', 'titleLocKey is required when specifying titleLocArgs')
for i, sound in enumerate([{}, {'critical': 1, 'volume': 0.5}, {'volume': -0.1}, {'volume': 1.1}]):
    case('java', 'critical-sound-%d' % i, dict(TT, apns={'payload': {'aps': {'sound': sound}}}), ['apns-critical-sound', 'apns-aps-value'],
         J + ':646 testInvalidCriticalSound', 'name must be specified' if i < 2 else 'volume must be in the interval [0,1]')
case('java', 'apns-aps-not-object', dict(TT, apns={'payload': {'aps': 'foo'}}), ['apns-aps-value'], J + ':667 testInvalidApnsConfig',
     'aps must be specified')
JDUP = {
    'apns-aps-twice': '{"message": {"topic": "test-topic", "apns": {"payload": {"aps": "foo", "aps": {}}}}}',
    'aps-alert-twice': '{"message": {"topic": "test-topic", "apns": {"payload": {"aps": {"alert": "string", "alert": {}}}}}}',
    'aps-sound-twice': '{"message": {"topic": "test-topic", "apns": {"payload": {"aps": {"sound": "default", "sound": {"name": "default"}}}}}}',
    'aps-mutable-content-twice': '{"message": {"topic": "test-topic", "apns": {"payload": {"aps": {"mutable-content": 1, "mutable-content": 1}}}}}',
}
for name, err in [('apns-aps-twice', 'Multiple specifications for aps'), ('aps-alert-twice', 'Multiple alert specifications'),
                  ('aps-sound-twice', 'Multiple sound specifications'), ('aps-mutable-content-twice', 'Multiple specifications for mutable-content')]:
    case('java', name, RawJSON(JDUP[name]), [DUP], J + ':664 testInvalidApnsConfig', err)
for key in ['loc-args', 'title-loc-args', 'subtitle-loc-args']:
    case('java', 'aps-alert-' + key, dict(TT, apns={'payload': {'aps': {'alert': {key: ['foo']}}}}), ['apns-alert-loc-args'],
         J + ':697 testInvalidApnsConfig (ApsAlert)', key.replace('-args', '-key') + ' is required when specifying ' + key)
for label in ['!', 'THIS_IS_LONGER_THAN_50_CHARACTERS_WHICH_IS_NOT_ALLOWED', '   ']:
    case('java', 'analytics-label-' + slug(label).replace('-', '')[:20], dict(TT, fcm_options={'analytics_label': label}), ['analytics-label'],
         J + ':801 testIncorrectAnalyticsLabelFormat', 'Analytics label must have format matching ^[a-zA-Z0-9-_.~%]{1,50}$')
case('java', 'light-settings-invalid-color',
     dict(TT, android={'notification': {'light_settings': {'color': '#01020K', 'light_on_duration': '1.002s', 'light_off_duration': '1.003s'}}}),
     ['android-light-settings', 'field-type'], J + ':954 testInvalidColorInAndroidNotificationLightSettings', 'Color must be in the form #RRGGBB or #RRGGBBAA')

VALID += [('java', f[:-5], J + ' (the maps given to assertJsonEquals in the tests that build a message)')
          for f in sorted(os.listdir(os.path.join(FIX, 'java', 'valid')))]

# ---------------------------------------------------------------- Python
# scripts/sdk-messages/python_sdk.py ran the encoder tests of firebase-admin-python's
# tests/test_messaging.py and wrote python-sdk-messages.json: each message in wire form (invalid
# values kept as written) and what the SDK's own encoder said. The rules meant for each test:
PY_RULES = {
    'test_invalid_target_message': ['target-exactly-one'],
    'test_invalid_token': ['field-type', 'target-exactly-one'],
    'test_invalid_fid': ['field-type', 'target-exactly-one'],
    'test_invalid_topic': ['field-type', 'topic-name', 'target-exactly-one'],
    'test_invalid_condition': ['field-type', 'condition-syntax', 'target-exactly-one'],
    'test_malformed_topic_name': ['topic-name'],
    'test_invalid_data_message': ['field-type', 'data-string-values'],
    'TestAndroidConfigEncoder.test_invalid_data': ['field-type', 'data-string-values'],
    'TestWebpushConfigEncoder.test_invalid_data': ['field-type', 'data-string-values'],
    'TestWebpushConfigEncoder.test_invalid_headers': ['field-type', 'webpush-header-value'],
    'TestAPNSConfigEncoder.test_invalid_headers': ['field-type', 'apns-header-value'],
    'TestAndroidConfigEncoder.test_invalid_priority': ['field-type', 'enum-value'],
    'test_invalid_ttl': ['android-ttl'],
    'TestAndroidNotificationEncoder.test_invalid_color': ['field-type', 'android-color'],
    'TestAndroidNotificationEncoder.test_invalid_priority': ['field-type', 'enum-value'],
    'test_invalid_visibility': ['field-type', 'enum-value'],
    'test_invalid_proxy': ['field-type', 'enum-value'],
    'test_invalid_vibrate_timings_millis': ['field-type', 'empty-value'],
    'test_negative_vibrate_timings_millis': ['android-negative-value'],
    'test_no_body_loc_key': ['android-loc-args'],
    'test_no_title_loc_key': ['android-loc-args', 'apns-alert-loc-args'],
    'test_no_loc_key': ['apns-alert-loc-args'],
    'TestLightSettingsEncoder': ['android-light-settings', 'field-type', 'android-negative-value'],
    'TestApsAlertEncoder': ['apns-alert-value', 'apns-aps-value'],
    'TestApsAlertEncoder.test_invalid_launch_image': ['apns-alert-launch-image'],
    'TestApsEncoder': ['apns-aps-value', 'apns-critical-sound', 'empty-value', 'apns-aps-custom-key'],
    'TestApsEncoder.test_multiple_field_specifications': ['json-duplicate-key'],
    'TestWebpushNotificationEncoder.test_multiple_field_specifications': ['json-duplicate-key'],
    'TestApsSoundEncoder': ['apns-aps-value', 'apns-critical-sound'],
    'TestFcmOptionEncoder': ['analytics-label'],
    'TestWebpushFCMOptionsEncoder': ['field-type', 'webpush-link-https'],
    'TestWebpushNotificationEncoder': ['webpush-notification-value', 'webpush-notification-action', 'field-type'],
}
# Rejected by the SDK, but their wire form is a valid message: not fixtures (README.md says why).
PY_OBJECT_TESTS = {'test_invalid_apns', 'test_invalid_payload', 'test_invalid_android', 'test_invalid_android_notification',
                   'test_invalid_notification', 'test_invalid_webpush', 'test_invalid_webpush_notification', 'test_invalid_aps',
                   'test_invalid_alert', 'test_invalid_color', 'test_invalid_light_settings'}


def py_skip(r):
    params = r['params']
    if params.endswith(": {}}") and r['test'] in PY_OBJECT_TESTS:
        return '{} is a valid empty object on the wire (the SDK wants an instance of its class)'
    if params.endswith(": ()}") and re.search(r'loc_args|actions', r['test']):
        return 'a tuple becomes [], a valid empty list on the wire (the SDK wants a list)'
    if re.search(r'priority|visibility|proxy', r['test']) and re.search(r": [01]}$", params):
        return "an integer for an enum field is the enum value's number, which proto3 JSON accepts"
    return None


def py_rules(r):
    for key in (r['cls'] + '.' + r['test'], r['test'], r['cls']):
        if key in PY_RULES:
            return PY_RULES[key]
    return ['field-type']


PY_SKIPPED = []
_py = json.load(open(os.path.join(ROOT, 'scripts', 'sdk-messages', 'python-sdk-messages.json')))
_count = {}
for r in _py:
    area = re.sub(r'([a-z0-9])([A-Z])', r'\1-\2', r['cls'][4:-7]).lower().replace('apns', 'apns-').replace('fcmoptions', 'fcm-options')
    base = area.strip('-') + '--' + re.sub(r'^test-', '', slug(r['test'].replace('_', '-'))) + '-%d' % r['index']
    _count[base] = _count.get(base, 0) + 1
    name = base + ('' if _count[base] == 1 else '-%d' % _count[base])
    source = 'python/tests/test_messaging.py:%d %s.%s %s' % (r['line'], r['cls'], r['test'], r['params'] if r['params'] != '{}' else '')
    if r['valid']:
        PY_VALID.append((name, r['encoded'], source.rstrip()))
        continue
    reason = r.get('nowire') or py_skip(r)
    if reason:
        PY_SKIPPED.append((source, r['error'], reason))
        continue
    text = json.dumps({'message': r['wire']}, indent=2).replace('\\u0000"', '"')
    case('python', name, RawJSON(text), py_rules(r), source.rstrip(), r['error'])

# ---------------------------------------------------------------- write


def main():
    rows = []
    seen = set()
    for sdk in sorted({c[0] for c in CASES}):
        d = os.path.join(FIX, sdk, 'invalid')
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
    for sdk, name, message, rules, source, error in CASES:
        base, n = name, 2
        while (sdk, name) in seen:   # two values with the same slug ('/foo/bar', 'foo bar')
            name, n = '%s-%d' % (base, n), n + 1
        seen.add((sdk, name))
        with open(os.path.join(FIX, sdk, 'invalid', name + '.json'), 'w') as out:
            out.write(message + '\n' if isinstance(message, RawJSON) else json.dumps({'message': message}, indent=2) + '\n')
        rows.append('\t'.join([sdk + '/invalid/' + name + '.json', ','.join(rules), source, error]))
    d = os.path.join(FIX, 'python', 'valid')
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    for name, message, source in PY_VALID:
        with open(os.path.join(d, name + '.json'), 'w') as out:
            out.write(json.dumps({'message': message}, indent=2) + '\n')
        VALID.append(('python', name, source))
    for sdk, name, source in VALID:
        allowed = ALLOWED.get((sdk, name))
        rows.append('\t'.join([sdk + '/valid/' + name + '.json', 'allow:' + ','.join(allowed) if allowed else '-', source, '-']))
    with open(os.path.join(FIX, 'manifest.tsv'), 'w') as out:
        out.write('# file\trules meant for it (invalid) or -\tSDK test\tSDK error text. Generated by scripts/sdk-messages/generate.py\n')
        out.write('\n'.join(rows) + '\n')
    write_readme(rows)
    print('%d invalid, %d valid' % (len(CASES), len(VALID)))


README_HEAD = '''# The Admin SDKs' own test messages, in REST form

Generated by `python3 scripts/sdk-messages/generate.py` (do not edit by hand; edit the script).
`SDKMessageTests` lints every file here: each message under `<sdk>/invalid/` (one an SDK refuses)
must get a warning or an error from one of the rules listed for it, and no message under
`<sdk>/valid/` (one an SDK's tests encode and send) may get an error, except those marked `allow:`.

Sources (firebase/firebase-admin-node 5a203f67, -go eebb06f, -java 074d5c56, -python b40e738):
Node `test/unit/messaging/messaging.spec.ts` (send() target tests, "Payload
validation", and the "Options validation" validMessages, whose `expectedReq` (else `req`) is the
wire form: `scripts/sdk-messages/valid_node.js` evaluates the array literal); Go
`messaging/messaging_test.go` (`validMessages[].want`, converted from Go map literals by
`valid_go.py`, and `invalidMessages[].req`); Java `MessageTest.java` (the builders that must
throw, and the maps given to `assertJsonEquals`, read by `valid_java.py`, a small evaluator of the
ImmutableMap/ImmutableList expressions). The invalid Node, Go and Java messages are transcribed in
`generate.py`. The Python SDK's expected messages come from
running its encoder tests (`python_sdk.py`; see docs/sdk-comparison.md) and are not repeated here.

Wire form: snake_case keys as the REST API takes them; an SDK's millisecond durations become
Duration strings ("-1 ms" is `"-0.001s"`); a colour the Java/Go/Node SDKs turn into a Color object
is kept as the string the author would have written where it is the invalid part.

Left out, having no wire form that differs from a valid message: `NaN` (no JSON value);
`null` for a message-typed field (`"android": null` is proto3 JSON's "unset", which FCM
accepts); Node's ttl `"1s"` (the Node API wants milliseconds, but `"1s"` is a valid wire ttl);
the Java builders that need an `aps` (`ApnsConfig.builder().build()`: `"apns": {}` is a valid
message); multicast and dry-run argument checks (not part of the message).

`allow:` on a valid file: Go's `Condition: "test-condition"` is not a condition (FCM answers
"Invalid condition expression provided."); Go's image `http://image.jpg` has a host name
ending in a file extension, which issue 15 keeps an error (`image-extension-android`,
`image-extension`); Java's android ttl of 30 days is over the documented 28-day maximum
(`android-ttl`); Java's APNs image without `"mutable-content": 1` never shows
(`apns-image-mutable-content`). The SDKs pass these values on unchecked; FCM or the device fails
on them.

Python: `scripts/sdk-messages/python_sdk.py WORK_TREE scripts/sdk-messages/python-sdk-messages.json`
runs the encoder test classes of firebase-admin-python's `tests/test_messaging.py` (commit
b40e738, a work tree made with `git archive`) with a recording `check_encoding`: each message is
converted to its wire form by a walk of the SDK's message objects (invalid values kept as
written), and the SDK's own encoder says whether it rejects it; a valid message's fixture is the
encoder's own output. The Python messages the SDK rejects but whose wire form is a valid message,
or which have none, are listed at the end.

| file | rules meant for it | SDK test | SDK error |
|---|---|---|---|
'''


def write_readme(rows):
    with open(os.path.join(FIX, 'README.md'), 'w') as out:
        out.write(README_HEAD)
        for row in rows:
            f, rules, source, error = row.split('\t')
            cell = lambda text: text.replace('|', '\\|')
            out.write('| `%s` | %s | %s | %s |\n' % (f, cell(rules), cell(source), cell(error) if error != '-' else 'valid'))
        out.write('\n## Python: rejected by the SDK, no fixture\n\n| SDK test | SDK error | why no fixture |\n|---|---|---|\n')
        for source, error, reason in PY_SKIPPED:
            out.write('| %s | %s | %s |\n' % (cell(source), cell(error), cell(reason)))


if __name__ == '__main__':
    main()
