-- Until now a run's stored stream_mode "messages" meant LangGraph's message tuples (the service took
-- "messages-tuple" as another name for it); from now "messages" is LangGraph's older messages/metadata, /partial,
-- /complete events, and tuples are stored as "messages-tuple". Runs stored before keep what their client asked for:
-- a join or reconnect that names no mode streams them as before.
UPDATE conduit_runs
SET kwargs = jsonb_set(kwargs, '{stream_mode}',
        (SELECT jsonb_agg(CASE WHEN m = '"messages"'::jsonb THEN '"messages-tuple"'::jsonb ELSE m END)
         FROM jsonb_array_elements(kwargs -> 'stream_mode') AS m))
WHERE jsonb_typeof(kwargs -> 'stream_mode') = 'array'
  AND kwargs -> 'stream_mode' @> '["messages"]'::jsonb;
