-- The pure check functions lose their own search_path setting; the functions that run them keep theirs.
--
-- Migration 0005 pinned every function to the log's schema. A function with a SET clause saves and
-- restores the setting on every call and is never inlined, and the insert trigger and the batch
-- function call the small checks (tally_text_ok, tally_uuid_ok, tally_payload_problem and the rest)
-- many times for each event: about 40 % of the time spent checking payloads went there.
--
-- Pinning protects a function from the search path of whoever calls it. These functions are run
-- only by functions that pin it themselves: the insert trigger and tally_sequence,
-- tally_append_batch and tally_redact (SECURITY DEFINER, pinned) and the update trigger (pinned);
-- a nested call runs with its caller's setting. None is SECURITY DEFINER, none is a trigger, none is
-- used by a constraint, default or index, and EXECUTE on them is revoked from PUBLIC (0005), so no
-- other role can call one with a search path of its choosing. Functions that are SECURITY DEFINER or
-- triggers stay pinned; a test checks both rules on a migrated log.
DO $$
DECLARE
  home OID := (SELECT relnamespace FROM pg_class WHERE oid = 'events'::regclass);
  helper REGPROCEDURE;
BEGIN
  FOR helper IN
    SELECT p.oid FROM pg_proc p
    WHERE p.pronamespace = home AND p.proname LIKE 'tally\_%' AND NOT p.prosecdef
      AND p.prorettype <> 'trigger'::regtype AND p.proconfig IS NOT NULL
      AND p.proname NOT IN ('tally_sequence', 'tally_append_batch', 'tally_redact')
  LOOP
    EXECUTE 'ALTER FUNCTION ' || helper::text || ' RESET search_path';
  END LOOP;
END;
$$;
