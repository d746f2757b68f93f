"""Runs the Python Admin SDK's encoder tests (tests/test_messaging.py) with a recording
check_encoding: each message is converted to its REST wire form by a walk of the SDK's message
objects (invalid values kept as written), and the SDK's own encoder says whether it rejects it."""
import sys, json, re, datetime, numbers, inspect, types, contextlib, os
if len(sys.argv) != 3:
    sys.exit('usage: python_sdk.py FIREBASE_ADMIN_PYTHON_WORK_TREE OUTPUT.json')
# Only the three dependency-free modules are loaded (firebase_admin/__init__ needs google-auth).
_pkg = types.ModuleType('firebase_admin')
_pkg.__path__ = [os.path.join(sys.argv[1], 'firebase_admin')]
sys.modules['firebase_admin'] = _pkg
from firebase_admin import _messaging_encoder as enc, _messaging_utils as u

messaging = types.SimpleNamespace(**{n: getattr(u, n) for n in dir(u) if n[0].isupper()})
messaging.Message = enc.Message
messaging.MulticastMessage = enc.MulticastMessage
ENCODER = enc.MessageEncoder()

class NoWire(Exception): pass

def dur(seconds):
    if isinstance(seconds, datetime.timedelta): seconds = seconds.total_seconds()
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Number): return plain(seconds)
    text = ('%.9f' % seconds).rstrip('0').rstrip('.')
    return text + 's'

def ms(v):
    if isinstance(v, bool) or not isinstance(v, numbers.Number): return plain(v)
    return dur(v / 1000)

def plain(v):
    if isinstance(v, float) and v != v: raise NoWire('NaN')
    if isinstance(v, (str, bool, int, float)) or v is None: return v
    if isinstance(v, (list, tuple)): return [plain(x) for x in v]
    if isinstance(v, dict):
        if any(not isinstance(k, str) for k in v): raise NoWire('non-string key')
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, datetime.datetime): return v.isoformat()
    if hasattr(v, '__dict__'): return conv(v)
    raise NoWire(type(v).__name__)

PRIORITY = {'min', 'low', 'default', 'high', 'max'}
def conv(o):
    n = type(o).__name__
    d = {}
    def put(key, value):
        if value is not None: d[key] = value
    if n == 'Message':
        for k in ('data', 'notification', 'android', 'webpush', 'apns', 'fcm_options', 'token', 'topic', 'condition', 'fid'):
            put(k, plain(getattr(o, k)))
    elif n == 'AndroidConfig':
        for k in ('collapse_key', 'priority', 'restricted_package_name', 'data', 'notification', 'fcm_options',
                  'direct_boot_ok', 'bandwidth_constrained_ok', 'restricted_satellite_ok'):
            put(k, plain(getattr(o, k)))
        if o.ttl is not None:
            if isinstance(o.ttl, str): raise NoWire('ttl string (the SDK API takes seconds; a wire Duration is a string)')
            put('ttl', dur(o.ttl))
    elif n == 'AndroidNotification':
        for k in ('title', 'body', 'icon', 'color', 'sound', 'tag', 'click_action', 'body_loc_key', 'body_loc_args',
                  'title_loc_key', 'title_loc_args', 'channel_id', 'image', 'ticker', 'sticky', 'local_only',
                  'default_vibrate_timings', 'default_sound', 'light_settings', 'default_light_settings', 'notification_count'):
            put(k, plain(getattr(o, k)))
        if o.event_timestamp is not None:
            ts = o.event_timestamp
            put('event_time', ts.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.%fZ') if isinstance(ts, datetime.datetime) and ts.tzinfo else
                ts.strftime('%Y-%m-%dT%H:%M:%S.%fZ') if isinstance(ts, datetime.datetime) else plain(ts))
        p = o.priority
        if p is not None: put('notification_priority', 'PRIORITY_' + p.upper() if isinstance(p, str) and p in PRIORITY else plain(p))
        for k in ('visibility', 'proxy'):
            v = getattr(o, k)
            if v is not None: put(k, v.upper() if isinstance(v, str) and v in ('private', 'public', 'secret', 'allow', 'deny', 'if_priority_lowered') else plain(v))
        v = o.vibrate_timings_millis
        if v is not None:
            if isinstance(v, (list, tuple)):
                if any(isinstance(x, str) for x in v): raise NoWire('vibrate timings given as strings of milliseconds')
                put('vibrate_timings', [ms(x) for x in v])
            else: put('vibrate_timings', plain(v))
    elif n == 'LightSettings':
        c = o.color
        if isinstance(c, str) and re.fullmatch(r'#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?', c):
            h = c[1:] + ('FF' if len(c) == 7 else '')
            c = {'red': int(h[0:2], 16) / 255, 'green': int(h[2:4], 16) / 255, 'blue': int(h[4:6], 16) / 255, 'alpha': int(h[6:8], 16) / 255}
        else: c = plain(c)
        put('color', c)
        if isinstance(o.light_on_duration_millis, str) or isinstance(o.light_off_duration_millis, str):
            raise NoWire('a duration string where the SDK API takes milliseconds')
        put('light_on_duration', ms(o.light_on_duration_millis))
        put('light_off_duration', ms(o.light_off_duration_millis))
    elif n in ('AndroidFCMOptions', 'FCMOptions', 'APNSFCMOptions', 'WebpushFCMOptions'):
        for k in ('analytics_label', 'image', 'link'):
            if hasattr(o, k): put(k, plain(getattr(o, k)))
    elif n == 'Notification':
        for k in ('title', 'body', 'image'): put(k, plain(getattr(o, k)))
    elif n == 'WebpushConfig':
        for k in ('headers', 'data', 'notification', 'fcm_options'): put(k, plain(getattr(o, k)))
    elif n == 'WebpushNotification':
        for k, w in (('title', 'title'), ('body', 'body'), ('icon', 'icon'), ('actions', 'actions'), ('badge', 'badge'),
                     ('data', 'data'), ('direction', 'dir'), ('image', 'image'), ('language', 'lang'), ('renotify', 'renotify'),
                     ('require_interaction', 'requireInteraction'), ('silent', 'silent'), ('tag', 'tag'),
                     ('timestamp_millis', 'timestamp'), ('vibrate', 'vibrate')):
            put(w, plain(getattr(o, k)))
        if o.custom_data is not None:
            if not isinstance(o.custom_data, dict): raise NoWire('custom_data not a dict')
            for k, v in o.custom_data.items():
                if not isinstance(k, str): raise NoWire('non-string key')
                d[k + '\u0000' if k in d else k] = plain(v)
    elif n == 'WebpushNotificationAction':
        for k in ('action', 'title', 'icon'): put(k, plain(getattr(o, k)))
    elif n == 'APNSConfig':
        for k in ('headers', 'payload', 'fcm_options', 'live_activity_token'): put(k, plain(getattr(o, k)))
    elif n == 'APNSPayload':
        put('aps', plain(o.aps))
        for k, v in o.custom_data.items(): d[k] = plain(v)
    elif n == 'Aps':
        for k, w in (('alert', 'alert'), ('badge', 'badge'), ('sound', 'sound'), ('category', 'category'), ('thread_id', 'thread-id')):
            put(w, plain(getattr(o, k)))
        for k, w in (('content_available', 'content-available'), ('mutable_content', 'mutable-content')):
            v = getattr(o, k)
            if v is True: d[w] = 1
            elif v is not None and v is not False: d[w] = plain(v)
        if o.custom_data is not None:
            if not isinstance(o.custom_data, dict): raise NoWire('custom_data not a dict')
            for k, v in o.custom_data.items():
                if not isinstance(k, str): raise NoWire('non-string key')
                d[k + '\u0000' if k in d else k] = plain(v)   # a key written twice: see generate.py
    elif n == 'CriticalSound':
        put('name', plain(o.name))
        if o.critical is True: d['critical'] = 1
        elif o.critical not in (None, False): d['critical'] = plain(o.critical)
        put('volume', plain(o.volume))
    elif n == 'ApsAlert':
        for k, w in (('title', 'title'), ('subtitle', 'subtitle'), ('body', 'body'), ('loc_key', 'loc-key'), ('loc_args', 'loc-args'),
                     ('title_loc_key', 'title-loc-key'), ('title_loc_args', 'title-loc-args'),
                     ('subtitle_loc_key', 'subtitle-loc-key'), ('subtitle_loc_args', 'subtitle-loc-args'),
                     ('action_loc_key', 'action-loc-key'), ('launch_image', 'launch-image')):
            if hasattr(o, k): put(w, plain(getattr(o, k)))
        if getattr(o, 'custom_data', None) is not None:
            if not isinstance(o.custom_data, dict): raise NoWire('custom_data not a dict')
            for k, v in o.custom_data.items(): d[k] = plain(v)
    else:
        raise NoWire('class ' + n)
    return d


RECORDS = []
CURRENT = {}

def check_encoding(msg, expected=None):
    rec = dict(CURRENT)
    try:
        wire = conv(msg) if isinstance(msg, enc.Message) else plain(msg)
        rec['wire'] = wire
    except NoWire as e:
        rec['nowire'] = str(e)
    except Exception as e:
        rec['nowire'] = 'converter: %r' % e
    try:
        encoded = ENCODER.default(msg)
        rec['valid'] = True
        rec['encoded'] = json.loads(json.dumps(encoded))
        RECORDS.append(rec)
    except ValueError as e:
        rec['valid'] = False
        rec['error'] = str(e)
        RECORDS.append(rec)
        raise

class Raises:
    def __init__(self, *exc, **kw): self.exc = exc; self.value = None
    def __enter__(self): return self
    def __exit__(self, t, v, tb):
        if t is None: raise AssertionError('did not raise')
        self.value = v
        return issubclass(t, self.exc)

class Mark:
    def __init__(self, name, args): self.name = name; self.args = args

class MarkFactory:
    def parametrize(self, names, values, **kw):
        def deco(fn):
            fn.__dict__.setdefault('marks', []).append((names, values))
            return fn
        return deco
    def __getattr__(self, name):
        return lambda *a, **k: (lambda fn: fn)

pytest = types.SimpleNamespace(raises=Raises, mark=MarkFactory(), warns=lambda *a, **k: contextlib.nullcontext(),
                               fixture=lambda *a, **k: (lambda fn: fn))

def main(path):
    src = open(path).read()
    lines = src.split('\n')
    start = next(i for i, l in enumerate(lines) if l.startswith('NON_STRING_ARGS'))
    end = next(i for i, l in enumerate(lines) if l.startswith('class TestTimeout'))
    header = '\n'.join(l for l in lines[start:start + 6])
    body = '\n'.join(lines[start + 6:end])
    blank = lambda m: '\n' * m.group(0).count('\n')   # keep the line numbers
    body = re.sub(r'^HTTP_ERROR_CODES = \{.*?^\}\n', blank, body, flags=re.S | re.M)
    body = re.sub(r'^FCM_ERROR_CODES = \{.*?^\}\n', blank, body, flags=re.S | re.M)
    body = re.sub(r'^def check_encoding\(.*?(?=^def |^class )', blank, body, flags=re.S | re.M)
    g = {'pytest': pytest, 'messaging': messaging, 'check_encoding': check_encoding, 'datetime': datetime,
         'json': json, 'numbers': numbers, 'chain': __import__('itertools').chain, 'repeat': __import__('itertools').repeat,
         '_utils': None, 'exceptions': None}
    code = compile('\n' * start + header + '\n' + body, path, 'exec')
    exec(code, g)
    for cname, cls in list(g.items()):
        if not (isinstance(cls, type) and cname.startswith('Test')) or cname in ('TestMessageStr', 'TestMulticastMessage'):
            continue
        for fname, fn in inspect.getmembers(cls, inspect.isfunction):
            if not fname.startswith('test_'): continue
            line = fn.__code__.co_firstlineno
            marks = fn.__dict__.get('marks', [])
            combos = [{}]
            for names, values in marks:
                names = [n.strip() for n in names.split(',')]
                combos = [dict(c, **dict(zip(names, v if len(names) > 1 else [v]))) for c in combos for v in values]
            for i, params in enumerate(combos):
                CURRENT.clear()
                CURRENT.update(cls=cname, test=fname, line=line, index=i, params=repr(params)[:120])
                try:
                    fn(cls(), **params)
                except AssertionError as e:
                    print('ASSERT', cname, fname, params, e, file=sys.stderr)
                except Exception as e:
                    print('EXC', cname, fname, repr(params)[:80], repr(e)[:200], file=sys.stderr)
    for r in RECORDS:
        r['file'] = 'tests/test_messaging.py'
    with open(sys.argv[2], 'w') as out:
        json.dump(RECORDS, out, indent=1, default=str, sort_keys=True)
        out.write('\n')
    from collections import Counter
    print(Counter(('valid' if r['valid'] else 'invalid', 'wire' if 'wire' in r else 'dup' if 'duplicate' in r else 'nowire') for r in RECORDS))

main(os.path.join(sys.argv[1], 'tests', 'test_messaging.py'))
