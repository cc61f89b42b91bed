#!/usr/bin/env python3
"""Expected legs of a multisport FIT file for MultisportFixtureTests, computed with python-fitparse
(an independent decoder) by the rules docs/guide/activities.md gives: one leg per session in order
of start, each holding the records from its start to the next session's start (the first leg also
what comes before), starting at its session's start or its first record when that is earlier; the
session's own elapsed time, distance and ascent; average and maximum heart rate by the method of
docs/guide/training.md (sensors.py). Run when a fixture is added; the numbers are committed in the
tests, this script is never run by them.  pip install fitparse"""
import sys
from datetime import timezone
import fitparse
sys.path.insert(0, __file__.rsplit('/', 1)[0])
from sensors import analyse

def legs(path):
    f = fitparse.FitFile(path)
    sessions = []
    for m in f.get_messages('session'):
        v = m.get_values()
        sessions.append(dict(start=v['start_time'].replace(tzinfo=timezone.utc).timestamp(), sport=v.get('sport'),
                             sub=v.get('sub_sport'), elapsed=v.get('total_elapsed_time'), distance=v.get('total_distance'),
                             ascent=v.get('total_ascent')))
    sessions.sort(key=lambda s: s['start'])
    starts = [s['start'] for s in sessions]
    def leg_of(t):
        k = 0
        for i, s in enumerate(starts):
            if s <= t: k = i
        return k
    samples = [[] for _ in sessions]
    first = [None] * len(sessions)
    for m in f.get_messages('record'):
        v = m.get_values()
        t = v.get('timestamp')
        if t is None: continue
        t = t.replace(tzinfo=timezone.utc).timestamp()
        k = leg_of(t)
        first[k] = t if first[k] is None else min(first[k], t)
        hr = v.get('heart_rate')
        hr = hr if hr is not None and 25 <= hr <= 250 else None
        if hr is not None: samples[k].append((t, hr, None, None))
    for k, s in enumerate(sessions):
        start = min(s['start'], first[k]) if first[k] is not None else s['start']
        a = analyse(samples[k])
        print(k + 1, s['sport'], s['sub'], int(start), round(s['elapsed']), round(s['distance'] * 10) / 10, s['ascent'],
              a['averageHeartRate'], a['maxHeartRate'])

for path in sys.argv[1:]:
    legs(path)
