-- Redaction (tally redact): the one change to stored events the owner of the log may make.
--
-- Events written by a tally that knows redaction carry a salt for each erasable value (`$salts`, see
-- Commitment.swift), and their hash link covers a salted commitment to the value instead of the
-- value. Erasing a value replaces it by {"redacted": commitment} and deletes its salt: the
-- committed form, and so every hash, stays byte for byte the same.

-- The committed form of a payload, as EventHash.swift hashes it: the payload itself when it has no
-- `$salts`; otherwise without the `$salts` member and with each salted value (a string or an array
-- of strings; tally salts nothing else) replaced by {"redacted":"<hex SHA-256 of 'tally-commit-1:'
-- || salt || ':' || the value's canonical JSON>"}. Canonical JSON escapes exactly as to_json does
-- (", \, \b \f \n \r \t, other U+0000-U+001F as \u00xx), so the pieces are built with to_json and
-- cut out of the stored text, which is canonical. Whatever cannot be read so is returned as it is,
-- which then fails the hash check: the server never accepts more than tally's own check would.
CREATE FUNCTION tally_committed_payload(p_data TEXT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  payload    JSONB;
  salts      JSONB;
  salts_text TEXT;
  result     TEXT;
  entry      RECORD;
  value      JSONB;
  canonical  TEXT;
  member     TEXT;
  marker     TEXT;
  found      BOOLEAN;
  before     TEXT;
  after      TEXT;
BEGIN
  IF left(p_data, 10) <> '{"$salts":' THEN
    RETURN p_data;
  END IF;
  BEGIN
    payload := p_data::jsonb;
  EXCEPTION WHEN others THEN
    RETURN p_data;
  END;
  salts := payload -> '$salts';
  IF jsonb_typeof(payload) <> 'object' OR jsonb_typeof(salts) <> 'object' THEN
    RETURN p_data;
  END IF;
  SELECT '{' || COALESCE(string_agg(to_json(key)::text || ':' || to_json(salt)::text, ',' ORDER BY convert_to(key, 'UTF8')), '') || '}'
    INTO salts_text FROM jsonb_each_text(salts) AS s(key, salt);
  IF left(p_data, 10 + length(salts_text)) <> '{"$salts":' || salts_text THEN
    RETURN p_data;
  END IF;
  result := substr(p_data, 11 + length(salts_text));
  IF left(result, 1) = ',' THEN
    result := '{' || substr(result, 2);
  ELSE
    result := '{' || result;
  END IF;
  FOR entry IN SELECT key, salt FROM jsonb_each_text(salts) AS s(key, salt) LOOP
    value := payload -> entry.key;
    IF value IS NULL THEN
      RETURN p_data;
    ELSIF jsonb_typeof(value) = 'string' THEN
      canonical := to_json(value #>> '{}')::text;
    ELSIF jsonb_typeof(value) = 'array' THEN
      IF EXISTS (SELECT 1 FROM jsonb_array_elements(value) AS e(item) WHERE jsonb_typeof(item) <> 'string') THEN
        RETURN p_data;
      END IF;
      SELECT '[' || COALESCE(string_agg(to_json(item)::text, ',' ORDER BY position), '') || ']'
        INTO canonical FROM jsonb_array_elements_text(value) WITH ORDINALITY AS e(item, position);
    ELSE
      RETURN p_data;
    END IF;
    member := to_json(entry.key)::text || ':' || canonical;
    marker := to_json(entry.key)::text || ':{"redacted":"'
      || encode(sha256(convert_to('tally-commit-1:' || entry.salt || ':' || canonical, 'UTF8')), 'hex') || '"}';
    found := FALSE;
    FOREACH before IN ARRAY ARRAY['{', ','] LOOP
      FOREACH after IN ARRAY ARRAY[',', '}'] LOOP
        IF NOT found AND strpos(result, before || member || after) > 0 THEN
          result := overlay(result PLACING before || marker || after
                            FROM strpos(result, before || member || after) FOR length(before || member || after));
          found := TRUE;
        END IF;
      END LOOP;
    END LOOP;
    IF NOT found THEN
      RETURN p_data;
    END IF;
  END LOOP;
  RETURN result;
END;
$$;

-- The payload as the limits read it: without `$salts`, each erased value read as its placeholder
-- (Commitment.readable in Swift), so an erased title still passes the title check.
CREATE FUNCTION tally_readable_payload(p_data JSONB) RETURNS JSONB LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result JSONB;
  entry  RECORD;
BEGIN
  IF jsonb_typeof(p_data) <> 'object' OR NOT p_data ? '$salts' THEN
    RETURN p_data;
  END IF;
  result := p_data - '$salts';
  FOR entry IN SELECT key, value FROM jsonb_each(result) LOOP
    IF jsonb_typeof(entry.value) = 'object' AND entry.value ? 'redacted' THEN
      result := jsonb_set(result, ARRAY[entry.key], CASE entry.key
        WHEN 'tags' THEN '["redacted"]'::jsonb
        WHEN 'project' THEN '"redacted"'::jsonb
        ELSE '"[redacted]"'::jsonb END);
    END IF;
  END LOOP;
  RETURN result;
END;
$$;

-- The insert trigger of 0006, checking the hash over the committed form and the limits over the
-- readable form.
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
  problem := tally_payload_problem(NEW.type, tally_readable_payload(NEW.data::jsonb));
  IF problem IS NOT NULL THEN
    RAISE EXCEPTION 'event % (%): %', NEW.seq, NEW.type, problem USING ERRCODE = 'check_violation';
  END IF;
  expected := encode(sha256(convert_to(
    COALESCE(last_hash, repeat('0', 64))
    || '{"actor":' || to_json(NEW.actor)::text || ',"command":' || to_json(NEW.command)::text
    || ',"data":' || tally_committed_payload(NEW.data) || ',"id":' || to_json(NEW.id)::text
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

-- Every erasure, logged: which event lost which field, at whose request (the history.redacted
-- event), by which role and when. Only the owner writes here, through tally_redact.
CREATE TABLE redactions(
  id        BIGSERIAL PRIMARY KEY,
  seq       BIGINT NOT NULL,
  redaction BIGINT NOT NULL,
  field     TEXT NOT NULL,
  role      TEXT NOT NULL DEFAULT session_user,
  at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
REVOKE ALL ON TABLE redactions FROM PUBLIC;

-- Erases a value from the event at p_seq, as the history.redacted event at p_redaction asks: the
-- new payload must have exactly the old one's committed form (so it can only erase, never alter,
-- and every hash stays valid). Logged in `redactions`; every snapshot is dropped (they were folded
-- from the values). Executable by the owner of the log alone: no grant is made to writers.
CREATE FUNCTION tally_redact(p_seq BIGINT, p_data TEXT, p_redaction BIGINT) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  request events%ROWTYPE;
  target  events%ROWTYPE;
BEGIN
  SELECT * INTO request FROM events WHERE seq = p_redaction;
  IF request.type IS DISTINCT FROM 'history.redacted' OR p_seq >= p_redaction THEN
    RAISE EXCEPTION 'event % is not a redaction after event %', p_redaction, p_seq USING ERRCODE = 'check_violation';
  END IF;
  SELECT * INTO target FROM events WHERE seq = p_seq FOR UPDATE;
  IF target.stream IS DISTINCT FROM (request.data::jsonb ->> 'stream') THEN
    RAISE EXCEPTION 'event % is not on the stream redaction % names', p_seq, p_redaction USING ERRCODE = 'check_violation';
  END IF;
  IF left(p_data, 10) <> '{"$salts":' OR json_typeof(p_data::json) <> 'object'
     OR tally_committed_payload(p_data) IS DISTINCT FROM tally_committed_payload(target.data)
     OR tally_committed_payload(p_data) = p_data THEN
    RAISE EXCEPTION 'event %: the new payload does not keep the committed form of the old one', p_seq USING ERRCODE = 'check_violation';
  END IF;
  INSERT INTO redactions(seq, redaction, field) VALUES (p_seq, p_redaction, request.data::jsonb ->> 'field');
  PERFORM set_config('tally.redacting', p_seq::text, true);
  UPDATE events SET data = p_data WHERE seq = p_seq;
  PERFORM set_config('tally.redacting', '', true);
  DELETE FROM snapshot_chunks;
  DELETE FROM snapshots;
END;
$$;
REVOKE ALL ON FUNCTION tally_redact(BIGINT, TEXT, BIGINT) FROM PUBLIC;

-- The update trigger lets exactly that UPDATE through: inside tally_redact, for the row it names,
-- with nothing but `data` changed. A writer has no UPDATE grant on events in the first place.
CREATE OR REPLACE FUNCTION tally_events_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('tally.redacting', true) = OLD.seq::text
     AND NEW.seq = OLD.seq AND NEW.id = OLD.id AND NEW.stream = OLD.stream AND NEW.version = OLD.version
     AND NEW.type = OLD.type AND NEW.schema = OLD.schema AND NEW.recorded_at = OLD.recorded_at
     AND NEW.actor = OLD.actor AND NEW.command = OLD.command AND NEW.hash = OLD.hash AND NEW.role = OLD.role THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

REVOKE ALL ON FUNCTION tally_committed_payload(TEXT) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_readable_payload(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_events_reject_change() FROM PUBLIC;

-- CREATE OR REPLACE dropped the settings of the replaced functions: pin them to their schema again.
DO $$
DECLARE
  home TEXT := (SELECT quote_ident(nspname) FROM pg_namespace WHERE oid = (SELECT relnamespace FROM pg_class WHERE oid = 'events'::regclass));
  signature TEXT;
BEGIN
  FOREACH signature IN ARRAY ARRAY[
    'tally_events_before_insert()',
    'tally_events_reject_change()',
    'tally_committed_payload(TEXT)',
    'tally_readable_payload(JSONB)',
    'tally_redact(BIGINT, TEXT, BIGINT)'
  ] LOOP
    EXECUTE 'ALTER FUNCTION ' || signature || ' SET search_path = ' || home || ', pg_temp';
  END LOOP;
END;
$$;
ALTER FUNCTION tally_events_before_insert() SET enable_seqscan = off;
