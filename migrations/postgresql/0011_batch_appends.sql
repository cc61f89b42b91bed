-- Batch appends: a batch of events checked once, as a set, instead of by the insert trigger row by row.
--
-- Until now every event went through the row trigger of migration 9, even inside a COPY of 50,000:
-- a PL/pgSQL call per row that takes the append lock again, reads the head and the stream's last
-- version through two index look-ups, and only then runs the checks. tally_append_batch takes a
-- batch as arrays (one per column, sent in binary), takes the append lock once, reads the head once,
-- and checks the whole batch with one query: each row's seq follows the one before it (the first
-- follows the head), each row's envelope and payload pass the same functions the trigger calls
-- (tally_envelope_problem, tally_content_problem: the same rules and the same messages), each
-- stream's versions run on from its last version in the log (counting the batch's earlier rows),
-- and each row's hash is the chain link over the row before it (the first over the head's hash),
-- recomputed with tally_event_hash's expression as the trigger recomputes it. A batch with any problem raises the
-- first problem in seq order and appends nothing. A checked batch goes in with one INSERT; the
-- unique indexes still refuse a taken id or (stream, version), and the statement trigger of
-- migration 7 notifies followers once.
--
-- The row trigger is skipped for that INSERT alone: its WHEN clause now lets a row through unchecked
-- only when the inserting statement runs as the owner of the log (current_user, which inside this
-- SECURITY DEFINER function is its owner, and for any other caller is the caller) and the
-- transaction-local setting tally.batch is 'on'. A writer can set the setting, but it cannot run a
-- statement as the owner except through the owner's functions, and only this one sets it (and
-- clears it before it returns). The owner itself could always drop the trigger; its own sessions
-- setting tally.batch gain nothing it did not have.
--
-- Who may call it: the roles that may append (INSERT on events), checked against the session's role,
-- the role the log records for the rows; the migration grants EXECUTE to the roles that have that
-- grant today, and the guide lists the grant for new writers (a writer without it appends with COPY
-- through the row trigger, as before).

CREATE FUNCTION tally_append_batch(p_seq BIGINT[], p_id TEXT[], p_stream TEXT[], p_version INTEGER[], p_type TEXT[],
                                   p_schema INTEGER[], p_data TEXT[], p_recorded_at BIGINT[], p_actor TEXT[],
                                   p_command TEXT[], p_hash TEXT[])
RETURNS BIGINT LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  n         INTEGER := COALESCE(cardinality(p_seq), 0);
  head_seq  BIGINT;
  head_hash TEXT;
  problem   TEXT;
BEGIN
  IF NOT has_table_privilege(session_user, 'events', 'INSERT') THEN
    RAISE EXCEPTION 'permission denied for table events' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF n = 0 THEN
    RETURN 0;
  END IF;
  IF n > 100000 THEN
    RAISE EXCEPTION 'a batch holds at most 100000 events, not %', n USING ERRCODE = 'check_violation';
  END IF;
  IF array_ndims(p_seq) <> 1
     OR COALESCE(cardinality(p_id), -1) <> n OR COALESCE(cardinality(p_stream), -1) <> n
     OR COALESCE(cardinality(p_version), -1) <> n OR COALESCE(cardinality(p_type), -1) <> n
     OR COALESCE(cardinality(p_schema), -1) <> n OR COALESCE(cardinality(p_data), -1) <> n
     OR COALESCE(cardinality(p_recorded_at), -1) <> n OR COALESCE(cardinality(p_actor), -1) <> n
     OR COALESCE(cardinality(p_command), -1) <> n OR COALESCE(cardinality(p_hash), -1) <> n THEN
    RAISE EXCEPTION 'the batch''s columns are not % values each', n USING ERRCODE = 'check_violation';
  END IF;
  IF array_position(p_seq, NULL) IS NOT NULL OR array_position(p_id, NULL) IS NOT NULL
     OR array_position(p_stream, NULL) IS NOT NULL OR array_position(p_version, NULL) IS NOT NULL
     OR array_position(p_type, NULL) IS NOT NULL OR array_position(p_schema, NULL) IS NOT NULL
     OR array_position(p_data, NULL) IS NOT NULL OR array_position(p_recorded_at, NULL) IS NOT NULL
     OR array_position(p_actor, NULL) IS NOT NULL OR array_position(p_command, NULL) IS NOT NULL
     OR array_position(p_hash, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'the batch holds a null value' USING ERRCODE = 'not_null_violation';
  END IF;

  PERFORM pg_advisory_xact_lock(7283945501);
  -- Read committed: this statement sees every append committed before the lock was granted.
  SELECT e.seq, e.hash INTO head_seq, head_hash FROM events e ORDER BY e.seq DESC LIMIT 1;
  head_seq := COALESCE(head_seq, 0);

  -- The checks of the row trigger, in its order for each row, over the whole batch at once. Every
  -- row before the first refused one passed, so "the row before" is the batch's previous row (the
  -- head for the first), and a stream's last version is the greater of the log's and the batch's
  -- earlier rows'.
  SELECT b.problem INTO problem FROM (
    SELECT r.nth, CASE
      WHEN r.seq <> head_seq + r.nth THEN
        format('events must be appended in order: seq %s after %s', r.seq, head_seq + r.nth - 1)
      ELSE COALESCE(
        -- The envelope's patterns, first as plain string tests that pass only what the patterns
        -- pass (36 characters, four '-' where a UUID has them, the rest lowercase hex; a stream of
        -- 1-100 allowed characters, the first a letter or digit); a row they do not pass gets the
        -- pattern function itself, for its verdict and its message.
        CASE WHEN NOT (length(r.id) = 36 AND translate(r.id, '0123456789abcdef', '') = '----'
                       AND substr(r.id, 9, 1) = '-' AND substr(r.id, 14, 1) = '-' AND substr(r.id, 19, 1) = '-' AND substr(r.id, 24, 1) = '-'
                       AND length(r.command) = 36 AND translate(r.command, '0123456789abcdef', '') = '----'
                       AND substr(r.command, 9, 1) = '-' AND substr(r.command, 14, 1) = '-' AND substr(r.command, 19, 1) = '-' AND substr(r.command, 24, 1) = '-'
                       AND length(r.stream) BETWEEN 1 AND 100
                       AND translate(r.stream, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz:._-', '') = ''
                       AND translate(left(r.stream, 1), ':._-', '') <> ''
                       AND r.type ~ '^[a-z][a-z_]{0,30}\.[a-z][a-z_]{0,30}$'
                       AND r.schema BETWEEN 1 AND 1000)
          THEN tally_envelope_problem(r.seq::text, r.id, r.command, r.stream, r.type, r.schema)
        END,
        CASE WHEN r.version < 1 OR r.version > COALESCE(GREATEST(r.logged, r.earlier), 0) + 1 THEN
          format('event %s: version %s of stream %s does not follow version %s', r.seq, r.version, r.stream,
                 COALESCE(GREATEST(r.logged, r.earlier), 0))
        END,
        tally_content_problem(r.seq::text, r.type, r.recorded_at, r.actor, r.data),
        -- tally_event_hash's expression, written out (a SQL function with its own search_path is
        -- called, not inlined); tally_committed_payload returns a payload without '{"$salts":' as it is.
        CASE WHEN r.hash IS DISTINCT FROM encode(sha256(convert_to(
            COALESCE(r.previous, head_hash, repeat('0', 64))
            || '{"actor":' || to_json(r.actor)::text || ',"command":' || to_json(r.command)::text
            || ',"data":' || CASE WHEN left(r.data, 10) = '{"$salts":' THEN tally_committed_payload(r.data) ELSE r.data END
            || ',"id":' || to_json(r.id)::text
            || ',"recordedAt":' || r.recorded_at || ',"schema":' || r.schema || ',"seq":' || r.seq
            || ',"stream":' || to_json(r.stream)::text || ',"type":' || to_json(r.type)::text
            || ',"version":' || r.version || '}', 'UTF8')), 'hex') THEN
          format('event %s: the hash does not link to the event before it', r.seq)
        END)
      END AS problem
    FROM (
      SELECT u.*,
             lag(u.hash) OVER (ORDER BY u.nth) AS previous,
             max(u.version) OVER (PARTITION BY u.stream ORDER BY u.nth ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earlier,
             l.logged
      FROM unnest(p_seq, p_id, p_stream, p_version, p_type, p_schema, p_data, p_recorded_at, p_actor, p_command, p_hash)
             WITH ORDINALITY AS u(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash, nth)
      JOIN (SELECT s.stream, (SELECT max(e.version) FROM events e WHERE e.stream = s.stream) AS logged
            FROM (SELECT DISTINCT unnest(p_stream) AS stream) s) l ON l.stream = u.stream
    ) r
  ) b
  WHERE b.problem IS NOT NULL
  ORDER BY b.nth
  LIMIT 1;
  IF problem IS NOT NULL THEN
    RAISE EXCEPTION '%', problem USING ERRCODE = 'check_violation';
  END IF;

  -- Checked: one INSERT, past the row trigger (see its WHEN clause below), with the session's role.
  PERFORM set_config('tally.batch', 'on', true);
  INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash, role)
  SELECT u.seq, u.id, u.stream, u.version, u.type, u.schema, u.data, u.recorded_at, u.actor, u.command, u.hash, session_user
  FROM unnest(p_seq, p_id, p_stream, p_version, p_type, p_schema, p_data, p_recorded_at, p_actor, p_command, p_hash)
         AS u(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash)
  ORDER BY u.seq;
  PERFORM set_config('tally.batch', '', true);
  RETURN n;
END;
$$;

REVOKE ALL ON FUNCTION tally_append_batch(BIGINT[], TEXT[], TEXT[], INTEGER[], TEXT[], INTEGER[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[]) FROM PUBLIC;

-- The row trigger, now skipped for the checked batch's INSERT alone (see above); the owner's name is
-- written into the condition, so that it is evaluated without a look-up per row.
DO $$
DECLARE
  home TEXT := (SELECT quote_ident(nspname) FROM pg_namespace WHERE oid = (SELECT relnamespace FROM pg_class WHERE oid = 'events'::regclass));
  owner OID := (SELECT relowner FROM pg_class WHERE oid = 'events'::regclass);
  writer TEXT;
BEGIN
  EXECUTE 'ALTER FUNCTION tally_append_batch(BIGINT[], TEXT[], TEXT[], INTEGER[], TEXT[], INTEGER[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[]) '
       || 'SET search_path = ' || home || ', pg_temp';
  DROP TRIGGER events_before_insert ON events;
  EXECUTE format('CREATE TRIGGER events_before_insert BEFORE INSERT ON events FOR EACH ROW '
                 'WHEN (current_setting(''tally.batch'', true) IS DISTINCT FROM ''on'' OR current_user <> %L) '
                 'EXECUTE FUNCTION tally_events_before_insert()', pg_get_userbyid(owner));
  FOR writer IN
    SELECT quote_ident(rolname) FROM pg_roles
    WHERE oid <> owner AND NOT rolsuper AND has_table_privilege(oid, 'events', 'INSERT')
  LOOP
    EXECUTE 'GRANT EXECUTE ON FUNCTION tally_append_batch(BIGINT[], TEXT[], TEXT[], INTEGER[], TEXT[], INTEGER[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[]) TO ' || writer;
  END LOOP;
END;
$$;
-- No JIT (see migration 9): the batch's query is planned once per call.
ALTER FUNCTION tally_append_batch(BIGINT[], TEXT[], TEXT[], INTEGER[], TEXT[], INTEGER[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[]) SET jit = off;
