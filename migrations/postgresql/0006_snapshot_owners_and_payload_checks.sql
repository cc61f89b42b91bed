-- Snapshots: who stored each one. A writer may store snapshots, and a snapshot with in-range values,
-- valid checksums and the right chain hash can still say something false (a title changed, a todo
-- marked done). So the server records the role that stored each snapshot (its login role, taken
-- from session_user inside the functions, never from an argument), and a client uses only the
-- snapshots stored by its own role or by the owner of the log (the owner of the events table): a
-- hostile writer can mislead only itself. Readers never store; they use the owner's snapshots.
-- The snapshots stored before this migration cannot say who stored them, so they are dropped (a
-- snapshot is a cache: the next commands store new ones).
DELETE FROM snapshot_chunks;
DELETE FROM snapshots;
ALTER TABLE snapshots ADD COLUMN stored_by TEXT NOT NULL DEFAULT session_user;
ALTER TABLE snapshots DROP CONSTRAINT snapshots_pkey, ADD PRIMARY KEY(stored_by, seq, format, reducer_version);
ALTER TABLE snapshot_chunks ADD COLUMN stored_by TEXT NOT NULL DEFAULT session_user;
ALTER TABLE snapshot_chunks DROP CONSTRAINT snapshot_chunks_pkey, ADD PRIMARY KEY(stored_by, seq, format, reducer_version, chunk);

-- The owner of the log: the role that owns the events table (who runs the migrations).
CREATE FUNCTION tally_log_owner() RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT pg_get_userbyid(relowner)::text FROM pg_class WHERE oid = 'events'::regclass;
$$;

-- Stores a snapshot as the calling role; each role keeps its own newest p_keep, and prunes only its own.
CREATE OR REPLACE FUNCTION tally_save_snapshot_chunks(p_seq BIGINT, p_format INTEGER, p_reducer INTEGER, p_created BIGINT,
                                                      p_checksum TEXT, p_body BYTEA, p_chunk_size INTEGER, p_sums BYTEA, p_keep INTEGER)
RETURNS void LANGUAGE sql SECURITY DEFINER AS $$
  DELETE FROM snapshot_chunks WHERE stored_by = session_user AND seq = p_seq AND format = p_format AND reducer_version = p_reducer;
  DELETE FROM snapshots WHERE stored_by = session_user AND seq = p_seq AND format = p_format AND reducer_version = p_reducer;
  INSERT INTO snapshots(stored_by, seq, format, reducer_version, created_at, checksum, body, size, chunk_size, chunk_sums)
  VALUES (session_user, p_seq, p_format, p_reducer, p_created, p_checksum, '\x', octet_length(p_body), p_chunk_size, p_sums);
  INSERT INTO snapshot_chunks(stored_by, seq, format, reducer_version, chunk, data)
  SELECT session_user, p_seq, p_format, p_reducer, i, substring(p_body FROM i * p_chunk_size + 1 FOR p_chunk_size)
  FROM generate_series(0, (octet_length(p_body) + p_chunk_size - 1) / p_chunk_size - 1) AS i;
  DELETE FROM snapshots WHERE stored_by = session_user AND (format <> p_format OR reducer_version <> p_reducer OR seq NOT IN (
    SELECT seq FROM snapshots WHERE stored_by = session_user AND format = p_format AND reducer_version = p_reducer
    ORDER BY seq DESC LIMIT p_keep));
  DELETE FROM snapshot_chunks c WHERE c.stored_by = session_user AND NOT EXISTS (
    SELECT 1 FROM snapshots s
    WHERE s.stored_by = c.stored_by AND s.seq = c.seq AND s.format = c.format AND s.reducer_version = c.reducer_version);
$$;

-- The whole-body form of formats before 7 (no client calls it any more): the same rule.
CREATE OR REPLACE FUNCTION tally_save_snapshot(p_seq BIGINT, p_format INTEGER, p_reducer INTEGER, p_created BIGINT,
                                               p_checksum TEXT, p_body BYTEA, p_keep INTEGER)
RETURNS void LANGUAGE sql SECURITY DEFINER AS $$
  DELETE FROM snapshot_chunks WHERE stored_by = session_user AND seq = p_seq AND format = p_format AND reducer_version = p_reducer;
  DELETE FROM snapshots WHERE stored_by = session_user AND seq = p_seq AND format = p_format AND reducer_version = p_reducer;
  INSERT INTO snapshots(stored_by, seq, format, reducer_version, created_at, checksum, body)
  VALUES (session_user, p_seq, p_format, p_reducer, p_created, p_checksum, p_body);
  DELETE FROM snapshots WHERE stored_by = session_user AND (format <> p_format OR reducer_version <> p_reducer OR seq NOT IN (
    SELECT seq FROM snapshots WHERE stored_by = session_user AND format = p_format AND reducer_version = p_reducer
    ORDER BY seq DESC LIMIT p_keep));
  DELETE FROM snapshot_chunks c WHERE c.stored_by = session_user AND NOT EXISTS (
    SELECT 1 FROM snapshots s
    WHERE s.stored_by = c.stored_by AND s.seq = c.seq AND s.format = c.format AND s.reducer_version = c.reducer_version);
$$;

-- One chunk of the snapshot the caller trusts at that key: its own if it stored one, else the owner's.
-- (The same choice as the client's listing, PostgresEventLog.snapshots.)
CREATE OR REPLACE FUNCTION tally_snapshot_chunk(p_seq BIGINT, p_format INTEGER, p_reducer INTEGER, p_chunk INTEGER)
RETURNS BYTEA LANGUAGE sql STABLE SECURITY DEFINER AS $$
  SELECT data FROM snapshot_chunks
  WHERE seq = p_seq AND format = p_format AND reducer_version = p_reducer AND chunk = p_chunk
    AND stored_by = (SELECT stored_by FROM snapshots
                     WHERE seq = p_seq AND format = p_format AND reducer_version = p_reducer
                       AND stored_by IN (session_user, tally_log_owner())
                     ORDER BY stored_by = session_user DESC LIMIT 1);
$$;

-- Deletes the caller's own snapshots; the owner of the log deletes every role's.
CREATE OR REPLACE FUNCTION tally_delete_snapshots() RETURNS void LANGUAGE sql SECURITY DEFINER AS $$
  DELETE FROM snapshot_chunks WHERE stored_by = session_user OR session_user = tally_log_owner();
  DELETE FROM snapshots WHERE stored_by = session_user OR session_user = tally_log_owner();
$$;

-- Payloads: the insert trigger also refuses what tally refuses to read or to import (the limits of
-- Validation and Timestamp.supportedRange as EventRules.checkPayload applies them to an event read
-- as every reader reads it), for every event type this schema knows, so that no writer can append,
-- with raw SQL, an event that every replica's `sync` then refuses for ever. Figures and instants
-- past the limits that earlier versions wrote are read brought inside (LegacyValues), so they are
-- taken here as tally's import takes them; a month 13 or an hour 25 is not.
-- Event types it does not know (from a newer tally) are accepted when their envelope is fine.
-- Where SQL cannot follow tally exactly it is stricter, never looser (docs/guide/postgresql.md):
--   * lengths count code points after NFC, where tally counts characters (grapheme clusters):
--     a text of combining marks near the limit may be refused here though tally accepts it;
--   * a tag is a-z, 0-9, '_', '-', a lowercase letter of Latin-1, Latin Extended-A, Greek or
--     Cyrillic, or a letter of the Hebrew, Arabic, Devanagari, Thai, Hiragana, Katakana, CJK and
--     Hangul blocks listed below (tally also accepts the marks and digits of those scripts and the
--     letters of others);
--   * a tag not in NFC is refused (tally compares tags by canonical equivalence);
--   * a field tally needs (a title, a duration) that is missing or of the wrong type is refused
--     here (tally would not decode that event at all).
-- Returns NULL when the payload is fine, else the reason.

-- Whether a JSON value is a text tally accepts: trimmed of white space (and U+200B), NFC (when
-- p_nfc), 1 to p_max code points, no control character (p_note: but newline and tab).
CREATE FUNCTION tally_text_ok(p_value JSONB, p_max INTEGER, p_nfc BOOLEAN, p_note BOOLEAN) RETURNS BOOLEAN
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  value TEXT;
BEGIN
  IF p_value IS NULL OR jsonb_typeof(p_value) <> 'string' THEN RETURN FALSE; END IF;
  value := regexp_replace(p_value #>> '{}',
    '^[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]+|[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]+$',
    '', 'g');
  -- (normalize() needs a UTF-8 database; in another encoding, skipping it never counts fewer characters.)
  IF p_nfc AND value !~ '^[\u0020-\u007e]*$' AND current_setting('server_encoding') = 'UTF8' THEN
    value := normalize(value, NFC);
  END IF;
  IF value = '' OR char_length(value) > p_max THEN RETURN FALSE; END IF;
  IF p_note THEN
    RETURN value !~ '[\u0001-\u0008\u000b-\u001f\u007f-\u009f]';
  END IF;
  RETURN value !~ '[\u0001-\u001f\u007f-\u009f]';
END;
$$;

-- Whether a JSON value is a number tally reads (whole when p_whole). Figures past the limits are
-- read brought inside (LegacyValues: a duration clamped, a distance or climb out of range as none, a
-- bad best effort dropped), so only what no reader could hold is refused here: beyond 10^15 in size.
-- p_low and p_high are the limits tally applies to what its own doors take, kept for the messages.
CREATE FUNCTION tally_number_ok(p_value JSONB, p_low NUMERIC, p_high NUMERIC, p_whole BOOLEAN) RETURNS BOOLEAN
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  value NUMERIC;
BEGIN
  IF p_value IS NULL OR jsonb_typeof(p_value) <> 'number' THEN RETURN FALSE; END IF;
  value := (p_value #>> '{}')::numeric;
  RETURN abs(value) <= 1e15 AND (NOT p_whole OR value = trunc(value));
END;
$$;

-- Whether a JSON value is a date (p_dates) or an instant tally reads (Timestamp.parse, and the
-- values earlier versions wrote outside the years 0001-9999, which tally reads brought inside,
-- LegacyValues): a valid month and day; for an instant 'T', 't' or ' ', HH:MM[:SS[.f...]] in range
-- and Z, z, +HH, +HHMM or +HH:MM (hours to 23, minutes to 59). A year of 0000, of five or more digits
-- or below zero only in the shape Timestamp.format wrote it (THH:MM:SS[.fff]Z).
CREATE FUNCTION tally_when_ok(p_value JSONB, p_dates BOOLEAN) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  value TEXT;
  parts TEXT[];
  clock TEXT[];
  legacy BOOLEAN;
BEGIN
  IF p_value IS NULL OR jsonb_typeof(p_value) <> 'string' THEN RETURN FALSE; END IF;
  value := p_value #>> '{}';
  parts := regexp_match(value, '^([0-9]{4}|[1-9][0-9]{4,17}|-[0-9]{4,18})(-[0-9]{2}-[0-9]{2})(.*)$');
  IF parts IS NULL OR parts[1] ~ '^-0+$' THEN RETURN FALSE; END IF;
  legacy := parts[1] = '0000' OR length(parts[1]) > 4;
  BEGIN
    PERFORM ('2000' || parts[2])::date;
  EXCEPTION WHEN others THEN
    RETURN FALSE;
  END;
  IF parts[3] = '' THEN RETURN p_dates; END IF;
  IF legacy THEN
    clock := regexp_match(parts[3], '^T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{3})?Z$');
  ELSE
    clock := regexp_match(parts[3], '^[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]+)?)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3])(?::?[0-5][0-9])?)$');
  END IF;
  IF clock IS NULL THEN RETURN FALSE; END IF;
  RETURN clock[1]::int <= 23 AND clock[2]::int <= 59 AND (clock[3] IS NULL OR clock[3]::int <= 59);
END;
$$;

-- Whether a JSON value is an array of at most 20 tags tally keeps as they are.
CREATE FUNCTION tally_tags_ok(p_value JSONB) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_value IS NULL OR jsonb_typeof(p_value) <> 'array' OR jsonb_array_length(p_value) > 20 THEN RETURN FALSE; END IF;
  RETURN NOT EXISTS (
    SELECT 1 FROM jsonb_array_elements(p_value) AS tag
    WHERE jsonb_typeof(tag) <> 'string' OR char_length(tag #>> '{}') > 32
       OR (tag #>> '{}') !~ ('^[-a-z0-9_\u00df-\u00f6\u00f8-\u00ff'
         || '\u0101\u0103\u0105\u0107\u0109\u010b\u010d\u010f\u0111\u0113\u0115\u0117\u0119\u011b\u011d\u011f'
         || '\u0121\u0123\u0125\u0127\u0129\u012b\u012d\u012f\u0131\u0133\u0135\u0137\u0138'
         || '\u013a\u013c\u013e\u0140\u0142\u0144\u0146\u0148\u0149'
         || '\u014b\u014d\u014f\u0151\u0153\u0155\u0157\u0159\u015b\u015d\u015f\u0161\u0163\u0165\u0167'
         || '\u0169\u016b\u016d\u016f\u0171\u0173\u0175\u0177\u017a\u017c\u017e\u017f'
         || '\u03ac-\u03ce\u0430-\u045f'
         -- Whole blocks of letters without case (Unicode's Lo and Lm): Hebrew, Arabic, Devanagari,
         -- Thai, Hiragana, Katakana, CJK ideographs, Hangul syllables.
         || '\u05d0-\u05ea\u0620-\u064a\u0904-\u0939\u0e01-\u0e30\u0e32\u0e33\u0e40-\u0e46\u3041-\u3096\u30a1-\u30fa\u30fc'
         || '\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]+$'));
END;
$$;

CREATE FUNCTION tally_payload_problem(p_type TEXT, p_data JSONB) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  uuid CONSTANT TEXT := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  track JSONB;
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
    track := p_data -> 'track';
    IF p_type = 'record.logged' AND track IS NOT NULL AND jsonb_typeof(track) <> 'null' THEN
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
    END IF;
  ELSIF p_type IN ('history.undone', 'history.redone') THEN
    IF jsonb_typeof(p_data -> 'command') IS DISTINCT FROM 'string' OR (p_data ->> 'command') !~ uuid THEN
      RETURN 'field ''command'' of the marker is not a lowercase UUID';
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

-- The insert trigger of 0005, now also checking the payload. It runs as the owner (SECURITY
-- DEFINER), so that the payload functions need no grant to anyone; the role it records is still
-- the session's, and it reads nothing but NEW and the events table.
CREATE OR REPLACE FUNCTION tally_events_before_insert() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  last_seq     BIGINT;
  last_hash    TEXT;
  last_version INTEGER;
  expected     TEXT;
  problem      TEXT;
BEGIN
  PERFORM pg_advisory_xact_lock(7283945501);
  SELECT seq, hash INTO last_seq, last_hash FROM events ORDER BY seq DESC LIMIT 1;
  last_seq := COALESCE(last_seq, 0);
  IF NEW.seq <> last_seq + 1 THEN
    RAISE EXCEPTION 'events must be appended in order: seq % after %', NEW.seq, last_seq
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.id !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RAISE EXCEPTION 'event %: the id is not a lowercase UUID', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.command !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RAISE EXCEPTION 'event %: the command is not a lowercase UUID', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.stream !~ '^[0-9A-Za-z][0-9A-Za-z:._-]{0,99}$' THEN
    RAISE EXCEPTION 'event %: the stream is not 1-100 letters, digits or ":._-"', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.type !~ '^[a-z][a-z_]{0,30}\.[a-z][a-z_]{0,30}$' THEN
    RAISE EXCEPTION 'event %: the type is not a tally event type', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.schema < 1 OR NEW.schema > 1000 THEN
    RAISE EXCEPTION 'event %: schema % is not between 1 and 1000', NEW.seq, NEW.schema USING ERRCODE = 'check_violation';
  END IF;
  -- Versions of a stream run 1, 2, 3, ...: a version past the next one leaves a gap no client can fill.
  SELECT max(version) INTO last_version FROM events WHERE stream = NEW.stream;
  IF NEW.version < 1 OR NEW.version > COALESCE(last_version, 0) + 1 THEN
    RAISE EXCEPTION 'event %: version % of stream % does not follow version %', NEW.seq, NEW.version, NEW.stream, COALESCE(last_version, 0)
      USING ERRCODE = 'check_violation';
  END IF;
  -- Years 0001 to 9999, in milliseconds since 1970.
  IF NEW.recorded_at < -62135596800000 OR NEW.recorded_at > 253402300799999 THEN
    RAISE EXCEPTION 'event %: the time % is not between the years 1 and 9999', NEW.seq, NEW.recorded_at USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.actor = '' OR char_length(NEW.actor) > 200 OR NEW.actor ~ '[\u0001-\u001f\u007f-\u009f]' THEN
    RAISE EXCEPTION 'event %: the actor is not 1-200 characters without control characters', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF octet_length(NEW.data) > 1048576 THEN
    RAISE EXCEPTION 'event %: the data is larger than 1 MiB', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  -- The cast refuses text that is not JSON.
  IF json_typeof(NEW.data::json) <> 'object' THEN
    RAISE EXCEPTION 'event %: the data is not a JSON object', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  problem := tally_payload_problem(NEW.type, NEW.data::jsonb);
  IF problem IS NOT NULL THEN
    RAISE EXCEPTION 'event % (%): %', NEW.seq, NEW.type, problem USING ERRCODE = 'check_violation';
  END IF;
  expected := encode(sha256(convert_to(
    COALESCE(last_hash, repeat('0', 64))
    || '{"actor":' || to_json(NEW.actor)::text || ',"command":' || to_json(NEW.command)::text
    || ',"data":' || NEW.data || ',"id":' || to_json(NEW.id)::text
    || ',"recordedAt":' || NEW.recorded_at || ',"schema":' || NEW.schema || ',"seq":' || NEW.seq
    || ',"stream":' || to_json(NEW.stream)::text || ',"type":' || to_json(NEW.type)::text
    || ',"version":' || NEW.version || '}', 'UTF8')), 'hex');
  IF NEW.hash IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'event %: the hash does not link to the event before it', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  NEW.role := session_user;
  RETURN NEW;
END;
$$;

REVOKE ALL ON FUNCTION tally_log_owner() FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_text_ok(JSONB, INTEGER, BOOLEAN, BOOLEAN) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_number_ok(JSONB, NUMERIC, NUMERIC, BOOLEAN) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_when_ok(JSONB, BOOLEAN) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_tags_ok(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_payload_problem(TEXT, JSONB) FROM PUBLIC;

-- CREATE OR REPLACE dropped the settings of the replaced functions: pin every function to its schema again.
DO $$
DECLARE
  home TEXT := (SELECT quote_ident(nspname) FROM pg_namespace WHERE oid = (SELECT relnamespace FROM pg_class WHERE oid = 'events'::regclass));
  signature TEXT;
BEGIN
  FOREACH signature IN ARRAY ARRAY[
    'tally_save_snapshot(BIGINT, INTEGER, INTEGER, BIGINT, TEXT, BYTEA, INTEGER)',
    'tally_save_snapshot_chunks(BIGINT, INTEGER, INTEGER, BIGINT, TEXT, BYTEA, INTEGER, BYTEA, INTEGER)',
    'tally_snapshot_chunk(BIGINT, INTEGER, INTEGER, INTEGER)',
    'tally_delete_snapshots()',
    'tally_events_before_insert()',
    'tally_log_owner()',
    'tally_text_ok(JSONB, INTEGER, BOOLEAN, BOOLEAN)',
    'tally_number_ok(JSONB, NUMERIC, NUMERIC, BOOLEAN)',
    'tally_when_ok(JSONB, BOOLEAN)',
    'tally_tags_ok(JSONB)',
    'tally_payload_problem(TEXT, JSONB)'
  ] LOOP
    EXECUTE 'ALTER FUNCTION ' || signature || ' SET search_path = ' || home || ', pg_temp';
  END LOOP;
END;
$$;
ALTER FUNCTION tally_events_before_insert() SET enable_seqscan = off;
