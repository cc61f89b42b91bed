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
-- The rest is 0006's, unchanged. One function per event type family: a later type is one more
-- branch in tally_payload_problem and, when it needs one, one more function beside these.

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
    IF jsonb_typeof(p_data -> 'filter') = 'object' AND (p_data -> 'filter') ? 'expression'
       AND NOT tally_text_ok(p_data -> 'filter' -> 'expression', 1000, FALSE, FALSE) THEN
      RETURN 'field ''expression'' of a view is not 1-1000 characters without control characters';
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

REVOKE ALL ON FUNCTION tally_whole_in(JSONB, NUMERIC, NUMERIC) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_track_problem(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_todo_links_problem(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_athlete_problem(JSONB) FROM PUBLIC;
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
    'tally_payload_problem(TEXT, JSONB)'
  ] LOOP
    EXECUTE 'ALTER FUNCTION ' || signature || ' SET search_path = ' || home || ', pg_temp';
  END LOOP;
END;
$$;
