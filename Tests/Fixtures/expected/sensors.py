#!/usr/bin/env python3
"""Expected sensor figures for SensorFixtureTests, computed with independent decoders
(python-fitparse for FIT, gpxpy for GPX, the standard library's XML parser for TCX) by the method
docs/guide/training.md describes. Run when a fixture is added; the numbers are committed in
the tests, this script is never run by them.  pip install fitparse gpxpy"""
import sys, xml.etree.ElementTree as ET
from datetime import datetime

MAX_GAP = 60.0

def fit_samples(path):
    import fitparse
    out = []
    for m in fitparse.FitFile(path).get_messages('record'):
        v = m.get_values()
        t = v.get('timestamp')
        if t is None: continue
        hr, cad, pw = v.get('heart_rate'), v.get('cadence'), v.get('power')
        hr = hr if hr is not None and 25 <= hr <= 250 else None
        cad = cad if cad is not None and 0 <= cad <= 250 else None
        pw = pw if pw is not None and 0 <= pw <= 2500 else None
        if hr is None and cad is None and pw is None: continue
        out.append((t.timestamp(), hr, cad, pw))
    return out

def tcx_samples(path):
    ns = {'t': 'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2'}
    out = []
    for tp in ET.parse(path).getroot().iter('{%s}Trackpoint' % ns['t']):
        time = tp.find('t:Time', ns)
        hr = tp.find('t:HeartRateBpm/t:Value', ns)
        if time is None or hr is None: continue
        t = datetime.fromisoformat(time.text.replace('Z', '+00:00')).timestamp()
        out.append((t, int(hr.text), None, None))
    return out

def gpx_samples(path):
    """TrackPointExtension hr and cad, and a power or PowerInWatts extension, read with gpxpy.  pip install gpxpy"""
    import gpxpy
    def value(point, names):
        for extension in point.extensions:
            for element in extension.iter():
                if element.tag.split('}')[-1] in names and element.text and element.text.strip():
                    return float(element.text)
        return None
    out = []
    for track in gpxpy.parse(open(path)).tracks:
        for segment in track.segments:
            for p in segment.points:
                if p.time is None: continue
                hr, cad, pw = value(p, ('hr',)), value(p, ('cad',)), value(p, ('power', 'PowerInWatts'))
                hr = hr if hr is not None and 25 <= hr <= 250 else None
                cad = cad if cad is not None and 0 <= cad <= 250 else None
                pw = pw if pw is not None and 0 <= pw <= 2500 else None
                if hr is None and cad is None and pw is None: continue
                out.append((p.time.timestamp(), hr, cad, pw))
    return out

def analyse(samples):
    samples = sorted(samples)
    w = [0.0] * len(samples)
    for i in range(len(samples) - 1):
        gap = samples[i + 1][0] - samples[i][0]
        if 0 < gap <= MAX_GAP: w[i] = gap
    def avg(k):
        num = sum(s[k] * w[i] for i, s in enumerate(samples) if s[k] is not None)
        den = sum(w[i] for i, s in enumerate(samples) if s[k] is not None)
        return round(num / den) if den else None
    hrs = [s[1] for s in samples if s[1] is not None]
    secs = []
    for i, s in enumerate(samples):
        if s[3] is not None: secs += [s[3]] * int(round(w[i]))
    np_ = None
    if len(secs) >= 30:
        roll = [sum(secs[i - 29:i + 1]) / 30 for i in range(29, len(secs))]
        np_ = round((sum(r ** 4 for r in roll) / len(roll)) ** 0.25)
    return dict(averageHeartRate=avg(1), maxHeartRate=max(hrs) if hrs else None, averageCadence=avg(2),
                averagePower=avg(3), normalizedPower=np_, samples=len(samples))

if __name__ == '__main__':
  for path in sys.argv[1:]:
    print(path, analyse(fit_samples(path) if path.endswith('.fit') else gpx_samples(path) if path.endswith('.gpx') else tcx_samples(path)))

def zones(samples, key, bounds):
    """Seconds in each zone: zone n holds values below bounds[n-1] (from the previous bound)."""
    samples = sorted(samples)
    out = [0.0] * (len(bounds) + 1)
    for i in range(len(samples) - 1):
        gap = samples[i + 1][0] - samples[i][0]
        v = samples[i][key]
        if v is None or not (0 < gap <= MAX_GAP): continue
        z = next((n for n, b in enumerate(bounds) if v < b), len(bounds))
        out[z] += gap
    return out

def fit_laps(path, samples):
    import fitparse
    samples = sorted(samples)
    laps = []
    for m in fitparse.FitFile(path).get_messages('lap'):
        v = m.get_values()
        start = v['start_time'].timestamp(); end = start + v['total_elapsed_time']
        num = den = 0.0
        for i in range(len(samples) - 1):
            t = samples[i][0]; gap = samples[i + 1][0] - t
            if start <= t < end and samples[i][1] is not None and 0 < gap <= MAX_GAP:
                num += samples[i][1] * gap; den += gap
        laps.append((round(v['total_elapsed_time'], 1), v.get('total_distance'), round(num / den) if den else None, v.get('avg_heart_rate')))
    return laps

if __name__ == '__main__' and len(sys.argv) == 1:
    s = fit_samples('edge810-vector-ride.fit')
    print('hr zones (LTHR 172, Friel)', zones(s, 1, [146, 155, 163, 172]))
    print('power zones (FTP 250, Coggan)', zones(s, 3, [140, 190, 228, 265, 303, 378]))
    print('laps (elapsed, distance, our avg HR, device avg HR)', fit_laps('edge810-vector-ride.fit', s))
