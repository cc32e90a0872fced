#!/usr/bin/env python3
# Is the server responsive while a review runs? (docs/analysis.md, "Where it runs")
#
# Plays Ur moves against the `easy` computer over HTTP, one request at a time, and prints the
# latency of each move request (p50/p90/p99/max), either alone or while an estimated review of
# a record runs on the same server:
#
#   madang serve --bind 127.0.0.1:18901 --data-dir /tmp/resp-data &
#   scripts/review_responsiveness.py http://127.0.0.1:18901 base - 2000
#   scripts/review_responsiveness.py http://127.0.0.1:18901 review RECORD.json 2000
#
# Python 3 standard library only.
import json, sys, time, urllib.request, http.cookiejar, threading, statistics
BASE = sys.argv[1]
cj = http.cookiejar.CookieJar()
op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cj))
def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(BASE + path, data=data, method=method, headers={'Content-Type': 'application/json', 'Origin': BASE})
    try:
        with op.open(req) as r:
            return r.status, json.loads(r.read() or b'null')
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b'null')
def play(n):
    times = []
    while len(times) < n:
        st, s = call('POST', '/api/games', {'game': 'ur', 'seats': [{'kind': 'human'}, {'kind': 'cpu', 'level': 'easy'}]})
        assert st == 201, (st, s)
        while s['status'] != 'finished' and len(times) < n:
            if not s.get('moves'):
                st, g = call('GET', f"/api/games/{s['id']}"); s = g; continue
            t = time.perf_counter()
            st, e = call('POST', f"/api/games/{s['id']}/actions", {'action': s['moves'][0]['action'], 'version': s['version']})
            times.append((time.perf_counter() - t) * 1000)
            assert st == 200, (st, e)
            s = e['state']
    return times
def pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(len(xs) * p))]
mode = sys.argv[2]
if mode == 'review':
    record = json.load(open(sys.argv[3]))
    st, r = call('POST', '/api/review', {'record': record})
    print('review started', st, r)
t0 = time.time()
times = play(int(sys.argv[4]) if len(sys.argv) > 4 else 400)
print(f"{mode}: {len(times)} moves in {time.time()-t0:.1f} s; p50 {pct(times, .5):.2f} ms p90 {pct(times, .9):.2f} ms p99 {pct(times, .99):.2f} ms max {max(times):.2f} ms")
if mode == 'review':
    st, r = call('POST', '/api/review', {'record': record})
    print('review now', st, r.get('status'), r.get('progress'))
