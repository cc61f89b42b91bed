# Reads an iCalendar file with the python3 icalendar package (and expands RRULEs with dateutil, its
# dependency): one JSON object per VTODO, for ICalendarExportTests. Usage: read_vtodos.py FILE
import sys, json
from icalendar import Calendar
from dateutil.rrule import rrulestr
cal = Calendar.from_ical(open(sys.argv[1], 'rb').read())
out = []
for c in cal.walk('VTODO'):
    due = c.decoded('DUE')
    item = {'uid': str(c['UID']), 'summary': str(c['SUMMARY']), 'description': str(c['DESCRIPTION']) if 'DESCRIPTION' in c else None,
            'due': due.isoformat(), 'status': str(c['STATUS']), 'priority': int(c['PRIORITY']) if 'PRIORITY' in c else None,
            'dtstart': c.decoded('DTSTART').isoformat() if 'DTSTART' in c else None,
            'completed': c.decoded('COMPLETED').isoformat() if 'COMPLETED' in c else None,
            'categories': [str(x) for x in c['CATEGORIES'].cats] if 'CATEGORIES' in c else [], 'next': []}
    if 'RRULE' in c:
        start = c.decoded('DTSTART')
        rule = rrulestr(c['RRULE'].to_ical().decode(), dtstart=start)
        # The first 400 occurrences (DTSTART first), each as ISO 8601 (dates at midnight, as dateutil gives them).
        # dateutil steps the wall clock; a pytz zone (as icalendar gives) must then be applied anew.
        zone = getattr(start, 'tzinfo', None)
        fix = (lambda d: zone.localize(d.replace(tzinfo=None))) if hasattr(zone, 'localize') else (lambda d: d)
        item['next'] = [fix(d).isoformat() for d in rule[0:400]]
        item['tzid'] = str(c['DTSTART'].params.get('TZID')) if 'TZID' in c['DTSTART'].params else None
    out.append(item)
print(json.dumps(out))
