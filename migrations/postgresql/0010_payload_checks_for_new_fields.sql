-- Payloads, again: the event types and fields added since migration 0006, with the limits of
-- EventRules (Validation, ProjectPath, TodoDependencies, TrackPayload, SensorLimits, AthleteLimits):
--   * todo.created and todo.edited: 'project' (up to 8 dotted names of 1-32 tag characters, 100 in
--     all, or null) and 'after' (up to 50 distinct lowercase UUIDs);
--   * record.logged: 'effort' (1-10 or null); a track's 'analysis' and 'sensors' (whole numbers or
--     null: out of their ranges they are read as none, so taken as import takes them);
--     record.edited's 'track' (it had no check), checked as record.logged's;
--   * athlete.set: 'from' a date in the years 0001-9999, every setting present as a whole number in
--     its range or null, 'heartRateZones' null or four increasing percentages between 30 and 150;
--   * filter.saved: 'expression', when given, a text of 1-1000 characters (whether it parses is
--     left to tally: the server accepts an expression tally refuses to import; see
--     docs/guide/postgresql.md).
--   * record.logged and record.edited: 'gear' (null or a lowercase UUID); a track's 'part' (null,
--     or an index from 1 to a count of 2-100 and a kind, leg or day);
--   * gear.added, gear.changed: a name of 1-60 characters, trimmed, without control characters; a
--     category as a record's; 'retireAtMeters' null or 1 km-100,000 km; 'retired', 'removed' true
--     or false; gear.defaulted: a category and a gear id or null;
--   * goal.set, goal.removed: a period (week, month, year), a metric (distance, time, count), a
--     category or null; goal.set's target in its metric's range (100 m-100,000 km, 1 minute-366
--     days, 1-10,000 whole activities) and 'from' a date in the years 0001-9999;
--   * todo.annotated: a lowercase UUID, an instant in the years 0001-9999 and a text of 1-1000
--     characters, trimmed, without control characters; todo.denotated: the UUID;
--     todo.started ('at', and 'end' not before it), todo.stopped, todo.unstarted: instants in the
--     years 0001-9999 (no earlier version wrote these: past the years they are refused, not read
--     brought inside);
--   * history.redacted: a stream id, a field that can be erased (title, note, tags, project, name,
--     place, file), at most 100,000 ascending positions and a reason of at most 500 characters
--     without control characters, or null;
--   * filter.saved of the todos, as contexts: at most 50, each named like a tag (not an action
--     word such as 'list') and an object whose 'expression' is checked as above; 'active', when
--     given, one of them. A saved view without 'contexts' (0.9's) is one context, checked as such.
-- The rest is 0006's, unchanged. One function per event type family: a later type is one more
-- branch in tally_payload_problem and, when it needs one, one more function beside these. The
-- trigger (0008) checks the readable payload (tally_readable_payload), so an erased value is checked
-- as its placeholder; none of the fields above can be erased.

-- Whether a JSON value is a whole number between p_low and p_high (tally_number_ok only bounds its
-- size: the figures it checks are read brought inside; these are refused past their limits).
CREATE FUNCTION tally_whole_in(p_value JSONB, p_low NUMERIC, p_high NUMERIC) RETURNS BOOLEAN
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  value NUMERIC;
BEGIN
  IF p_value IS NULL OR jsonb_typeof(p_value) <> 'number' THEN RETURN FALSE; END IF;
  value := (p_value #>> '{}')::numeric;
  RETURN value = trunc(value) AND value BETWEEN p_low AND p_high;
END;
$$;

-- The milliseconds since 1970 of a JSON value that is an instant tally reads inside the years
-- 0001-9999 (UTC), else NULL, for the event types no earlier version wrote: what tally_when_ok
-- takes, with a four-digit year from 0001, at or after 0001-01-01T00:00:00Z and before
-- 10000-01-01T00:00:00Z once its offset is applied.
CREATE FUNCTION tally_instant_ms(p_value JSONB) RETURNS NUMERIC LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  moment TIMESTAMPTZ;
BEGIN
  IF NOT tally_when_ok(p_value, FALSE) OR (p_value #>> '{}') !~ '^[0-9]{4}-' OR (p_value #>> '{}') LIKE '0000%' THEN
    RETURN NULL;
  END IF;
  BEGIN
    moment := (p_value #>> '{}')::timestamptz;
  EXCEPTION WHEN others THEN
    RETURN NULL;
  END;
  IF moment < '0001-01-01T00:00:00Z'::timestamptz OR moment >= '10000-01-01T00:00:00Z'::timestamptz THEN
    RETURN NULL;
  END IF;
  RETURN floor(extract(epoch FROM moment) * 1000);
END;
$$;

-- Whether a JSON value is a day (YYYY-MM-DD) in the years 0001-9999.
CREATE FUNCTION tally_day_ok(p_value JSONB) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_typeof(p_value) IS NOT DISTINCT FROM 'string' AND (p_value #>> '{}') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
         AND (p_value #>> '{}') NOT LIKE '0000%' AND tally_when_ok(p_value, TRUE);
$$;

-- Whether a JSON value is a lowercase UUID (p_null: or null).
CREATE FUNCTION tally_uuid_ok(p_value JSONB, p_null BOOLEAN) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE jsonb_typeof(p_value)
           WHEN 'null' THEN p_null
           WHEN 'string' THEN (p_value #>> '{}') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
           ELSE FALSE
         END IS TRUE;
$$;

-- Whether a JSON value is a category ([a-z][a-z0-9-]{0,31}).
CREATE FUNCTION tally_category_ok(p_value JSONB) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_typeof(p_value) IS NOT DISTINCT FROM 'string' AND (p_value #>> '{}') ~ '^[a-z][-a-z0-9]{0,31}$';
$$;

-- Whether a JSON value is a text as it is stored, trimmed, of 1 to p_max code points after NFC
-- (tally counts characters, never more) without control characters: a gear name (GearLimits), an
-- annotation. (tally compares the text with its trimmed form by canonical equivalence: a text not
-- in NFC is taken as it is.)
CREATE FUNCTION tally_line_ok(p_value JSONB, p_max INTEGER) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  value TEXT;
BEGIN
  IF NOT tally_text_ok(p_value, p_max, TRUE, FALSE) THEN RETURN FALSE; END IF;
  value := p_value #>> '{}';
  RETURN value !~ '^[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]'
     AND value !~ '[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]$';
END;
$$;

-- Whether a JSON value is a number (whole or not) between p_low and p_high.
CREATE FUNCTION tally_number_in(p_value JSONB, p_low NUMERIC, p_high NUMERIC) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(p_value) = 'number' THEN (p_value #>> '{}')::numeric BETWEEN p_low AND p_high ELSE FALSE END IS TRUE;
$$;

-- Why a track member (record.logged, record.edited) breaks the limits, or NULL.
CREATE FUNCTION tally_track_problem(track JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  sensor RECORD;
BEGIN
  IF jsonb_typeof(track) <> 'object' OR jsonb_typeof(track -> 'sha256') IS DISTINCT FROM 'string'
     OR (track ->> 'sha256') !~ '^[0-9a-f]{64}$' THEN
    RETURN 'field ''track.sha256'' is not 64 lowercase hex digits';
  END IF;
  IF jsonb_typeof(track -> 'format') IS DISTINCT FROM 'string' OR (track ->> 'format') NOT IN ('gpx', 'tcx', 'fit') THEN
    RETURN 'field ''track.format'' is not gpx, tcx or fit';
  END IF;
  IF NOT tally_number_ok(track -> 'movingSeconds', 0, 604800, TRUE) THEN
    RETURN 'field ''track.movingSeconds'' is not between 0 and 7 days';
  END IF;
  IF jsonb_typeof(track -> 'elevationGainMeters') IS DISTINCT FROM 'null'
     AND NOT tally_number_ok(track -> 'elevationGainMeters', 0, 100000, FALSE) THEN
    RETURN 'field ''track.elevationGainMeters'' is not between 0 and 100 km';
  END IF;
  -- (tally keeps the first 32 it reads; more are what an earlier version may have written)
  IF jsonb_typeof(track -> 'bestEfforts') IS DISTINCT FROM 'array' OR jsonb_array_length(track -> 'bestEfforts') > 1000 THEN
    RETURN 'more than 1000 best efforts';
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(track -> 'bestEfforts') AS effort
             WHERE jsonb_typeof(effort) <> 'object' OR NOT tally_number_ok(effort -> 'meters', 1, 1000000, TRUE)
                OR (jsonb_typeof(effort -> 'seconds') <> 'null' AND NOT tally_number_ok(effort -> 'seconds', 0, 604800, FALSE))) THEN
    RETURN 'a best effort is not a positive distance and a time of at most 7 days';
  END IF;
  -- The analysis version and the sensor figures are read brought inside their ranges (LegacyValues:
  -- a figure out of range as none), so the server takes any whole number there, as import does.
  IF track ? 'analysis' AND NOT tally_number_ok(track -> 'analysis', 1, 1000, TRUE) THEN
    RETURN 'field ''track.analysis'' is not a whole number';
  END IF;
  IF track ? 'sensors' AND jsonb_typeof(track -> 'sensors') <> 'null' THEN
    IF jsonb_typeof(track -> 'sensors') <> 'object' THEN
      RETURN 'field ''track.sensors'' is not an object';
    END IF;
    FOR sensor IN SELECT * FROM (VALUES ('averageHeartRate', 25, 250), ('maxHeartRate', 25, 250), ('averageCadence', 0, 250),
                                        ('averagePower', 0, 2500), ('normalizedPower', 0, 2500)) AS s(name, low, high) LOOP
      IF (track -> 'sensors') ? sensor.name AND jsonb_typeof(track -> 'sensors' -> sensor.name) <> 'null'
         AND NOT tally_number_ok(track -> 'sensors' -> sensor.name, sensor.low, sensor.high, TRUE) THEN
        RETURN 'field ''track.sensors.' || sensor.name || ''' is not a whole number';
      END IF;
    END LOOP;
  END IF;
  -- A multisport leg or a day of a file (FilePart): 1 <= index <= count, 2 <= count <= 100.
  IF track ? 'part' AND jsonb_typeof(track -> 'part') <> 'null' THEN
    IF jsonb_typeof(track -> 'part') <> 'object' OR NOT tally_whole_in(track -> 'part' -> 'count', 2, 100)
       OR jsonb_typeof(track -> 'part' -> 'kind') IS DISTINCT FROM 'string' OR (track -> 'part' ->> 'kind') NOT IN ('leg', 'day') THEN
      RETURN 'field ''track.part'' is not an index from 1 to a count of 2 to 100 and a kind, leg or day';
    END IF;
    IF NOT tally_whole_in(track -> 'part' -> 'index', 1, (track -> 'part' ->> 'count')::numeric) THEN
      RETURN 'field ''track.part'' is not an index from 1 to a count of 2 to 100 and a kind, leg or day';
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

-- Why a todo's 'project' or 'after' breaks the limits (todo.created, todo.edited), or NULL.
CREATE FUNCTION tally_todo_links_problem(p_data JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  uuid CONSTANT TEXT := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  project TEXT;
BEGIN
  IF p_data ? 'project' AND jsonb_typeof(p_data -> 'project') <> 'null' THEN
    project := p_data ->> 'project';
    IF jsonb_typeof(p_data -> 'project') <> 'string' OR char_length(project) > 100
       OR array_length(string_to_array(project, '.'), 1) > 8
       OR NOT tally_tags_ok(to_jsonb(string_to_array(project, '.'))) THEN
      RETURN 'field ''project'' is not up to 8 dotted names of 1-32 letters or digits, ''_'' and ''-'' (100 characters in all)';
    END IF;
  END IF;
  IF p_data ? 'after' THEN
    IF jsonb_typeof(p_data -> 'after') <> 'array' OR jsonb_array_length(p_data -> 'after') > 50 THEN
      RETURN 'field ''after'' is not at most 50 todos';
    END IF;
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_data -> 'after') AS id
               WHERE jsonb_typeof(id) <> 'string' OR (id #>> '{}') !~ uuid) THEN
      RETURN 'field ''after'' holds something that is not a lowercase UUID';
    END IF;
    IF (SELECT count(DISTINCT id) FROM jsonb_array_elements(p_data -> 'after') AS id) <> jsonb_array_length(p_data -> 'after') THEN
      RETURN 'field ''after'' names a todo twice';
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

-- Why an athlete.set payload breaks the limits, or NULL.
CREATE FUNCTION tally_athlete_problem(p_data JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  setting RECORD;
  zones JSONB := p_data -> 'heartRateZones';
BEGIN
  IF jsonb_typeof(p_data -> 'from') IS DISTINCT FROM 'string' OR (p_data ->> 'from') !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
     OR (p_data ->> 'from') LIKE '0000%' OR NOT tally_when_ok(p_data -> 'from', TRUE) THEN
    RETURN 'field ''from'' is not a date in the years 0001-9999';
  END IF;
  FOR setting IN SELECT * FROM (VALUES ('maxHeartRate', 100, 250), ('restingHeartRate', 25, 120),
                                       ('thresholdHeartRate', 80, 250), ('ftp', 30, 1000)) AS s(name, low, high) LOOP
    IF NOT p_data ? setting.name OR (jsonb_typeof(p_data -> setting.name) <> 'null'
       AND NOT tally_whole_in(p_data -> setting.name, setting.low, setting.high)) THEN
      RETURN 'field ''' || setting.name || ''' is not between ' || setting.low || ' and ' || setting.high;
    END IF;
  END LOOP;
  IF zones IS NULL THEN
    RETURN 'field ''heartRateZones'' is not four increasing percentages between 30 and 150';
  END IF;
  IF jsonb_typeof(zones) <> 'null' THEN
    IF jsonb_typeof(zones) <> 'array' OR jsonb_array_length(zones) <> 4 THEN
      RETURN 'field ''heartRateZones'' is not four increasing percentages between 30 and 150';
    END IF;
    FOR i IN 0 .. 3 LOOP
      IF NOT tally_whole_in(zones -> i, 30, 150) THEN
        RETURN 'field ''heartRateZones'' is not four increasing percentages between 30 and 150';
      END IF;
      IF i > 0 AND (zones ->> i)::numeric <= (zones ->> (i - 1))::numeric THEN
        RETURN 'field ''heartRateZones'' is not four increasing percentages between 30 and 150';
      END IF;
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;

-- Why a gear event (gear.added, gear.changed, gear.defaulted) breaks GearLimits, or NULL.
CREATE FUNCTION tally_gear_problem(p_type TEXT, p_data JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_type = 'gear.defaulted' THEN
    IF NOT tally_category_ok(p_data -> 'category') THEN
      RETURN 'field ''category'' is not [a-z][a-z0-9-]{0,31}';
    END IF;
    IF NOT p_data ? 'gear' OR NOT tally_uuid_ok(p_data -> 'gear', TRUE) THEN
      RETURN 'field ''gear'' is not a lowercase UUID or null';
    END IF;
    RETURN NULL;
  END IF;
  IF (p_type = 'gear.added' OR p_data ? 'name') AND NOT tally_line_ok(p_data -> 'name', 60) THEN
    RETURN 'field ''name'' of gear is not 1-60 characters, trimmed, without control characters';
  END IF;
  IF p_type = 'gear.added' AND NOT tally_category_ok(p_data -> 'category') THEN
    RETURN 'field ''category'' is not [a-z][a-z0-9-]{0,31}';
  END IF;
  IF (p_type = 'gear.added' OR p_data ? 'retireAtMeters') AND jsonb_typeof(p_data -> 'retireAtMeters') IS DISTINCT FROM 'null'
     AND NOT tally_number_in(p_data -> 'retireAtMeters', 1000, 100000000) THEN
    RETURN 'field ''retireAtMeters'' is not between 1 km and 100,000 km';
  END IF;
  IF p_type = 'gear.changed' AND ((p_data ? 'retired' AND jsonb_typeof(p_data -> 'retired') <> 'boolean')
                                 OR (p_data ? 'removed' AND jsonb_typeof(p_data -> 'removed') <> 'boolean')) THEN
    RETURN 'field ''retired'' or ''removed'' is not true or false';
  END IF;
  RETURN NULL;
END;
$$;

-- Why a goal event (goal.set, goal.removed) breaks GoalPayload's limits, or NULL.
CREATE FUNCTION tally_goal_problem(p_type TEXT, p_data JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  metric TEXT := p_data ->> 'metric';
BEGIN
  IF jsonb_typeof(p_data -> 'per') IS DISTINCT FROM 'string' OR (p_data ->> 'per') NOT IN ('week', 'month', 'year') THEN
    RETURN 'field ''per'' of a goal is not week, month or year';
  END IF;
  IF jsonb_typeof(p_data -> 'metric') IS DISTINCT FROM 'string' OR metric NOT IN ('distance', 'time', 'count') THEN
    RETURN 'field ''metric'' of a goal is not distance, time or count';
  END IF;
  IF NOT p_data ? 'category' OR (jsonb_typeof(p_data -> 'category') <> 'null' AND NOT tally_category_ok(p_data -> 'category')) THEN
    RETURN 'field ''category'' of a goal is not [a-z][a-z0-9-]{0,31} or null';
  END IF;
  IF p_type = 'goal.removed' THEN RETURN NULL; END IF;
  IF (metric = 'distance' AND NOT tally_number_in(p_data -> 'target', 100, 100000000))
     OR (metric = 'time' AND NOT tally_number_in(p_data -> 'target', 60, 31622400))
     OR (metric = 'count' AND NOT tally_whole_in(p_data -> 'target', 1, 10000)) THEN
    RETURN 'field ''target'' of a goal is outside its metric''s range (100-100000000 m, 60-31622400 s, 1-10000 whole activities)';
  END IF;
  IF NOT tally_day_ok(p_data -> 'from') THEN
    RETURN 'field ''from'' of a goal is not a date in the years 0001-9999';
  END IF;
  RETURN NULL;
END;
$$;

-- Why an annotation or a timing event of a todo (todo.annotated, todo.denotated, todo.started,
-- todo.stopped, todo.unstarted) breaks the limits, or NULL.
CREATE FUNCTION tally_todo_time_problem(p_type TEXT, p_data JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  at NUMERIC;
  ending NUMERIC;
BEGIN
  IF p_type IN ('todo.annotated', 'todo.denotated') AND NOT tally_uuid_ok(p_data -> 'id', FALSE) THEN
    RETURN 'field ''id'' of an annotation is not a lowercase UUID';
  END IF;
  IF p_type = 'todo.denotated' THEN RETURN NULL; END IF;
  at := tally_instant_ms(p_data -> 'at');
  IF at IS NULL THEN
    RETURN 'field ''at'' is not an instant in the years 0001-9999';
  END IF;
  IF p_type = 'todo.annotated' AND NOT tally_line_ok(p_data -> 'text', 1000) THEN
    RETURN 'field ''text'' of an annotation is not 1-1000 characters on one line, trimmed, without control characters';
  END IF;
  IF p_type = 'todo.started' AND p_data ? 'end' AND jsonb_typeof(p_data -> 'end') <> 'null' THEN
    ending := tally_instant_ms(p_data -> 'end');
    IF ending IS NULL THEN
      RETURN 'field ''end'' is not an instant in the years 0001-9999';
    END IF;
    IF ending < at THEN
      RETURN 'field ''end'' is before ''at''';
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

-- Why a history.redacted marker breaks Redaction's limits, or NULL.
CREATE FUNCTION tally_redaction_problem(p_data JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF NOT tally_uuid_ok(p_data -> 'stream', FALSE) THEN
    RETURN 'field ''stream'' of a redaction is not a lowercase UUID';
  END IF;
  IF jsonb_typeof(p_data -> 'field') IS DISTINCT FROM 'string'
     OR (p_data ->> 'field') NOT IN ('title', 'note', 'tags', 'project', 'annotations', 'name', 'place', 'file') THEN
    RETURN 'field ''field'' of a redaction is not one that can be erased';
  END IF;
  -- One annotation named (redact --annotation N): its id, and only with the field 'annotations'.
  IF p_data ? 'annotation' AND jsonb_typeof(p_data -> 'annotation') <> 'null'
     AND (NOT tally_uuid_ok(p_data -> 'annotation', FALSE) OR (p_data ->> 'field') <> 'annotations') THEN
    RETURN 'field ''annotation'' of a redaction is not a lowercase UUID with field ''annotations''';
  END IF;
  IF jsonb_typeof(p_data -> 'events') IS DISTINCT FROM 'array' OR jsonb_array_length(p_data -> 'events') > 100000 THEN
    RETURN 'field ''events'' of a redaction is not at most 100000 positions';
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_data -> 'events') AS event WHERE NOT tally_whole_in(event, 1, 9223372036854775807)) THEN
    RETURN 'field ''events'' of a redaction is not ascending positions';
  END IF;
  IF EXISTS (SELECT 1 FROM (SELECT (event #>> '{}')::numeric AS seq, lag((event #>> '{}')::numeric) OVER (ORDER BY position) AS before
                               FROM jsonb_array_elements(p_data -> 'events') WITH ORDINALITY AS e(event, position)) AS pairs
                WHERE pairs.seq <= pairs.before) THEN
    RETURN 'field ''events'' of a redaction is not ascending positions';
  END IF;
  IF NOT p_data ? 'reason' OR (jsonb_typeof(p_data -> 'reason') <> 'null'
     AND (jsonb_typeof(p_data -> 'reason') <> 'string' OR char_length(p_data ->> 'reason') > 500
          OR (p_data ->> 'reason') ~ '[\u0001-\u001f\u007f-\u009f]')) THEN
    RETURN 'field ''reason'' of a redaction is longer than 500 characters or contains control characters';
  END IF;
  RETURN NULL;
END;
$$;

-- Why a filter.saved payload breaks the limits, or NULL: a view's expression is a text of 1-1000
-- characters (whether it parses is left to tally); the todos' contexts (TodoContexts) at most 50,
-- each named like a tag and not an action word, 'active' one of them. A todos' view without
-- 'contexts' is 0.9's, read as the context 'default'.
CREATE FUNCTION tally_filter_problem(p_data JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  filter JSONB := p_data -> 'filter';
  contexts JSONB;
  context RECORD;
BEGIN
  IF jsonb_typeof(filter) IS DISTINCT FROM 'object' THEN RETURN NULL; END IF;
  IF p_data ->> 'scope' IS DISTINCT FROM 'todos' OR NOT filter ? 'contexts' THEN
    IF filter ? 'expression' AND NOT tally_text_ok(filter -> 'expression', 1000, FALSE, FALSE) THEN
      RETURN 'field ''expression'' of a view is not 1-1000 characters without control characters';
    END IF;
    RETURN NULL;
  END IF;
  contexts := filter -> 'contexts';
  IF jsonb_typeof(contexts) <> 'object' THEN
    RETURN 'field ''contexts'' of the todos'' view is not an object';
  END IF;
  IF (SELECT count(*) FROM jsonb_object_keys(contexts)) > 50 THEN
    RETURN 'field ''contexts'' holds more than 50 contexts';
  END IF;
  FOR context IN SELECT key, value FROM jsonb_each(contexts) LOOP
    IF NOT tally_tags_ok(jsonb_build_array(context.key))
       OR context.key IN ('define', 'list', 'delete', 'none', 'show', 'ls', 'rm') THEN
      RETURN 'field ''contexts'' names a context that is not a name like a tag';
    END IF;
    IF jsonb_typeof(context.value) <> 'object' THEN
      RETURN 'field ''contexts'' holds a context that is not an object';
    END IF;
    IF context.value ? 'expression' AND NOT tally_text_ok(context.value -> 'expression', 1000, FALSE, FALSE) THEN
      RETURN 'field ''expression'' of a view is not 1-1000 characters without control characters';
    END IF;
  END LOOP;
  IF filter ? 'active' AND (jsonb_typeof(filter -> 'active') <> 'string' OR NOT contexts ? (filter ->> 'active')) THEN
    RETURN 'field ''active'' names no context';
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION tally_payload_problem(p_type TEXT, p_data JSONB) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  uuid CONSTANT TEXT := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  problem TEXT;
BEGIN
  IF p_type IN ('todo.created', 'todo.edited', 'series.started', 'series.changed') THEN
    IF (p_type IN ('todo.created', 'series.started') OR p_data ? 'title') AND NOT tally_text_ok(p_data -> 'title', 500, TRUE, FALSE) THEN
      RETURN 'field ''title'' is not 1-500 characters without control characters';
    END IF;
    IF (p_type IN ('todo.created', 'series.started') OR p_data ? 'tags') AND NOT tally_tags_ok(p_data -> 'tags') THEN
      RETURN 'field ''tags'' is not at most 20 tags of 1-32 lowercase letters or digits, ''_'' and ''-''';
    END IF;
    IF p_data ? 'note' AND jsonb_typeof(p_data -> 'note') <> 'null' AND NOT tally_text_ok(p_data -> 'note', 10000, TRUE, TRUE) THEN
      RETURN 'field ''note'' is longer than 10000 characters or contains control characters';
    END IF;
    IF p_type = 'series.started' AND NOT tally_when_ok(p_data -> 'start', TRUE) THEN
      RETURN 'field ''start'' is outside the years 0001-9999';
    END IF;
    IF p_type IN ('todo.created', 'todo.edited') THEN
      IF p_data ? 'due' AND jsonb_typeof(p_data -> 'due') <> 'null' AND NOT tally_when_ok(p_data -> 'due', TRUE) THEN
        RETURN 'field ''due'' is outside the years 0001-9999';
      END IF;
      IF p_data ? 'wait' AND jsonb_typeof(p_data -> 'wait') <> 'null' AND NOT tally_when_ok(p_data -> 'wait', TRUE) THEN
        RETURN 'field ''wait'' is outside the years 0001-9999';
      END IF;
      IF p_data ? 'series' AND jsonb_typeof(p_data -> 'series') <> 'null'
         AND (jsonb_typeof(p_data -> 'series') <> 'string' OR (p_data ->> 'series') !~ uuid) THEN
        RETURN 'field ''series'' is not a lowercase UUID';
      END IF;
      problem := tally_todo_links_problem(p_data);
      IF problem IS NOT NULL THEN RETURN problem; END IF;
    END IF;
  ELSIF p_type IN ('record.logged', 'record.edited') THEN
    IF (p_type = 'record.logged' OR p_data ? 'name') AND NOT tally_text_ok(p_data -> 'name', 200, FALSE, FALSE) THEN
      RETURN 'field ''name'' is not 1-200 characters without control characters';
    END IF;
    IF (p_type = 'record.logged' OR p_data ? 'category')
       AND (jsonb_typeof(p_data -> 'category') IS DISTINCT FROM 'string' OR (p_data ->> 'category') !~ '^[a-z][-a-z0-9]{0,31}$') THEN
      RETURN 'field ''category'' is not [a-z][a-z0-9-]{0,31}';
    END IF;
    IF (p_type = 'record.logged' OR p_data ? 'durationSeconds') AND NOT tally_number_ok(p_data -> 'durationSeconds', 1, 604800, TRUE) THEN
      RETURN 'field ''durationSeconds'' is not above zero and at most 7 days';
    END IF;
    IF p_data ? 'distanceMeters' AND jsonb_typeof(p_data -> 'distanceMeters') <> 'null'
       AND NOT tally_number_ok(p_data -> 'distanceMeters', 0, 1000000, FALSE) THEN
      RETURN 'field ''distanceMeters'' is not between 0 and 1000 km';
    END IF;
    IF p_data ? 'place' AND jsonb_typeof(p_data -> 'place') <> 'null' AND NOT tally_text_ok(p_data -> 'place', 200, FALSE, FALSE) THEN
      RETURN 'field ''place'' is not 1-200 characters without control characters';
    END IF;
    IF p_data ? 'note' AND jsonb_typeof(p_data -> 'note') <> 'null' AND NOT tally_text_ok(p_data -> 'note', 10000, TRUE, TRUE) THEN
      RETURN 'field ''note'' is longer than 10000 characters or contains control characters';
    END IF;
    IF (p_type = 'record.logged' OR p_data ? 'date') AND NOT tally_when_ok(p_data -> 'date', FALSE) THEN
      RETURN 'field ''date'' is outside the years 0001-9999';
    END IF;
    IF p_type = 'record.logged' AND p_data ? 'effort' AND jsonb_typeof(p_data -> 'effort') <> 'null'
       AND NOT tally_whole_in(p_data -> 'effort', 1, 10) THEN
      RETURN 'field ''effort'' is not between 1 and 10';
    END IF;
    IF p_data ? 'gear' AND NOT tally_uuid_ok(p_data -> 'gear', TRUE) THEN
      RETURN 'field ''gear'' is not a lowercase UUID';
    END IF;
    IF p_data ? 'track' AND jsonb_typeof(p_data -> 'track') <> 'null' THEN
      problem := tally_track_problem(p_data -> 'track');
      IF problem IS NOT NULL THEN RETURN problem; END IF;
    END IF;
  ELSIF p_type IN ('history.undone', 'history.redone') THEN
    IF jsonb_typeof(p_data -> 'command') IS DISTINCT FROM 'string' OR (p_data ->> 'command') !~ uuid THEN
      RETURN 'field ''command'' of the marker is not a lowercase UUID';
    END IF;
  ELSIF p_type = 'athlete.set' THEN
    RETURN tally_athlete_problem(p_data);
  ELSIF p_type = 'filter.saved' THEN
    RETURN tally_filter_problem(p_data);
  ELSIF p_type IN ('gear.added', 'gear.changed', 'gear.defaulted') THEN
    RETURN tally_gear_problem(p_type, p_data);
  ELSIF p_type IN ('goal.set', 'goal.removed') THEN
    RETURN tally_goal_problem(p_type, p_data);
  ELSIF p_type IN ('todo.annotated', 'todo.denotated', 'todo.started', 'todo.stopped', 'todo.unstarted') THEN
    RETURN tally_todo_time_problem(p_type, p_data);
  ELSIF p_type = 'history.redacted' THEN
    RETURN tally_redaction_problem(p_data);
  END IF;
  RETURN NULL;
END;
$$;

REVOKE ALL ON FUNCTION tally_whole_in(JSONB, NUMERIC, NUMERIC) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_track_problem(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_todo_links_problem(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_athlete_problem(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_instant_ms(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_day_ok(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_uuid_ok(JSONB, BOOLEAN) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_category_ok(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_line_ok(JSONB, INTEGER) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_number_in(JSONB, NUMERIC, NUMERIC) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_gear_problem(TEXT, JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_goal_problem(TEXT, JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_todo_time_problem(TEXT, JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_redaction_problem(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_filter_problem(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_payload_problem(TEXT, JSONB) FROM PUBLIC;

-- Pinned to the log's schema, as 0006 pins every function (CREATE OR REPLACE dropped the setting).
DO $$
DECLARE
  home TEXT := (SELECT quote_ident(nspname) FROM pg_namespace WHERE oid = (SELECT relnamespace FROM pg_class WHERE oid = 'events'::regclass));
  signature TEXT;
BEGIN
  FOREACH signature IN ARRAY ARRAY[
    'tally_whole_in(JSONB, NUMERIC, NUMERIC)',
    'tally_track_problem(JSONB)',
    'tally_todo_links_problem(JSONB)',
    'tally_athlete_problem(JSONB)',
    'tally_instant_ms(JSONB)',
    'tally_day_ok(JSONB)',
    'tally_uuid_ok(JSONB, BOOLEAN)',
    'tally_category_ok(JSONB)',
    'tally_line_ok(JSONB, INTEGER)',
    'tally_number_in(JSONB, NUMERIC, NUMERIC)',
    'tally_gear_problem(TEXT, JSONB)',
    'tally_goal_problem(TEXT, JSONB)',
    'tally_todo_time_problem(TEXT, JSONB)',
    'tally_redaction_problem(JSONB)',
    'tally_filter_problem(JSONB)',
    'tally_payload_problem(TEXT, JSONB)'
  ] LOOP
    EXECUTE 'ALTER FUNCTION ' || signature || ' SET search_path = ' || home || ', pg_temp';
  END LOOP;
END;
$$;
