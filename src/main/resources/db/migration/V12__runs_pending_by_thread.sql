-- A thread's pending runs, oldest first: the claim asks of each candidate whether it is its thread's oldest pending
-- run, and this index answers in one probe however many runs are pending (PostgresRunStore's CLAIM).
CREATE INDEX conduit_runs_pending_thread ON conduit_runs (thread_id, created_at, run_id) WHERE status = 'pending';
