-- A record's effort can be given, changed and cleared after the fact (`record edit --effort N`,
-- `--no-effort`): record.edited carries 'effort' as record.logged does, a whole number from 1 to 10,
-- or null when the edit clears it. EventRules refuses anything else in either type (a number outside
-- 1-10 or not whole, text, true or false, an array, an object), and so does the server now:
-- migration 0010 checked the key in record.logged only, and took any value of it in record.edited.
--
-- tally_payload_problem is 0010's, with that one condition widened to both record types; nothing
-- else changes. Like every pure check since migration 0012 it has no search_path of its own (it
-- runs inside the pinned trigger and batch functions), and EXECUTE on it stays revoked from PUBLIC
-- (CREATE OR REPLACE keeps the function's privileges).

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
    IF p_data ? 'effort' AND jsonb_typeof(p_data -> 'effort') <> 'null' AND NOT tally_whole_in(p_data -> 'effort', 1, 10) THEN
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
