#!/usr/bin/env python3
"""Expected legs of a TCX MultiSportSession for MultisportFileTests, computed with Python's own XML
parser (an independent decoder) by the rules docs/guide/activities.md gives: one leg per Activity
and Transition of the first MultiSportSession, in order of start; a leg starts at its first lap's
StartTime (else its Activity's Id), or at its first trackpoint when that is earlier; its time runs
to its last trackpoint (else its laps' TotalTimeSeconds); its distance is its laps' DistanceMeters;
average and maximum heart rate of the trackpoints from its start to the next leg's start, by the
method of docs/guide/training.md (sensors.py). Run when a fixture is added; the numbers are
committed in the tests, this script is never run by them."""
import sys
import xml.etree.ElementTree as ET
from datetime import datetime
sys.path.insert(0, __file__.rsplit('/', 1)[0])
from sensors import analyse

NS = '{http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2}'

def when(text):
    return datetime.fromisoformat(text.strip().replace('Z', '+00:00')).timestamp()

def legs(path):
    session = ET.parse(path).getroot().find(f'{NS}Activities/{NS}MultiSportSession')
    parts = []
    for child in session:
        if child.tag == f'{NS}FirstSport' or child.tag == f'{NS}NextSport':
            for part in child:
                if part.tag == f'{NS}Activity':
                    parts.append((part.get('Sport'), part, part.findall(f'{NS}Lap')))
                elif part.tag == f'{NS}Transition':
                    parts.append(('transition', part, [part]))
    out = []
    for sport, element, laps in parts:
        starts = [when(lap.get('StartTime')) for lap in laps if lap.get('StartTime')]
        ident = element.find(f'{NS}Id')
        start = starts[0] if starts else (when(ident.text) if ident is not None else None)
        timer = sum(float(lap.find(f'{NS}TotalTimeSeconds').text) for lap in laps if lap.find(f'{NS}TotalTimeSeconds') is not None)
        meters = sum(float(lap.find(f'{NS}DistanceMeters').text) for lap in laps if lap.find(f'{NS}DistanceMeters') is not None)
        times, samples = [], []
        for tp in element.iter(f'{NS}Trackpoint'):
            t = tp.find(f'{NS}Time')
            if t is None: continue
            t = when(t.text)
            times.append(t)
            hr = tp.find(f'{NS}HeartRateBpm/{NS}Value')
            if hr is not None and 25 <= int(hr.text) <= 250: samples.append((t, int(hr.text), None, None))
        begin = min([start] + times[:1]) if times else start
        elapsed = max(times) - min(begin, min(times)) if times else timer
        out.append(dict(sport=sport, start=begin, elapsed=elapsed, timer=timer, meters=meters, samples=samples))
    out.sort(key=lambda leg: leg['start'])
    # Each leg's samples: those from its start to the next leg's start (the first leg also those before).
    every = sorted(s for leg in out for s in leg['samples'])
    for k, leg in enumerate(out):
        end = out[k + 1]['start'] if k + 1 < len(out) else float('inf')
        mine = [s for s in every if (k == 0 or s[0] >= leg['start']) and s[0] < end]
        a = analyse(mine)
        print(k + 1, leg['sport'], int(leg['start']), round(leg['elapsed']), round(leg['timer'], 2), round(leg['meters'] * 10) / 10,
              a['averageHeartRate'], a['maxHeartRate'], a['samples'])

for path in sys.argv[1:]:
    legs(path)
