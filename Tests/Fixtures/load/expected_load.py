#!/usr/bin/env python3
"""Expected training-load series for TrainingLoadTests (TrainingCommandTests.load), computed
independently of tally from the published formulas: Banister's TRIMP (Banister 1991; the
0.64 / 1.92 constants), Foster's session RPE (Foster et al. 2001) and the Coggan/TrainingPeaks
Performance Manager (CTL 42 days, ATL 7 days, TSB = yesterday's CTL - yesterday's ATL).
The heart rate and moving time of the Edge 810 ride come from python-fitparse
(../expected/sensors.py: 154 bpm; session total_timer_time 4700.05 s). Run by hand; the output
is committed in the test."""
import math
from datetime import date, timedelta

def trimp(minutes, hr, rest, mx):
    r = min(1, max(0, (hr - rest) / (mx - rest)))
    return minutes * r * 0.64 * math.exp(1.92 * r)

def tss(seconds, np_, ftp):
    return seconds * np_ * (np_ / ftp) / (ftp * 3600) * 100

loads = {
    date(2013, 8, 16): trimp(4700 / 60, 154, 50, 190),   # Edge 810 ride, resting HR 50 from 2013-01-01
    date(2013, 8, 18): 7 * 60,                            # gym, 1 h, effort 7
    date(2013, 8, 20): 5 * 45,                            # run, 45 min, effort 5
    date(2013, 8, 25): 6 * 120,                           # ride, 2 h, effort 6
    date(2013, 9, 1): 8 * 30,                             # intervals, 30 min, effort 8
}
ctl = atl = 0.0
day, end = min(loads), date(2013, 9, 10)
rows = []
while day <= end:
    load = loads.get(day, 0.0)
    form = ctl - atl
    ctl += (load - ctl) / 42
    atl += (load - atl) / 7
    if day >= date(2013, 8, 14):
        rows.append((day.isoformat(), round(load, 1), round(ctl, 1), round(atl, 1), round(form, 1)))
    day += timedelta(days=1)
for row in rows:
    print('("%s", %s, %s, %s, %s),' % row)
print('TSS of 1 h at NP 250 W, FTP 250:', tss(3600, 250, 250), '; 90 min at NP 228, FTP 200:', round(tss(5400, 228, 200), 3))
