-- Crons (io.conduit.persistence.PostgresCronStore): runs asked for on a schedule, LangGraph's /runs/crons. A tick is
-- claimed with SELECT ... FOR UPDATE SKIP LOCKED on the due index, so replicas never run one tick twice.
CREATE TABLE conduit_crons (
    cron_id          text        PRIMARY KEY,
    assistant_id     text        NOT NULL,
    thread_id        text,
    schedule         text        NOT NULL,
    timezone         text,
    end_time         timestamptz,
    enabled          boolean     NOT NULL,
    next_run_date    timestamptz,
    on_run_completed text,
    payload          jsonb       NOT NULL,
    metadata         jsonb       NOT NULL,
    user_id          text,
    owner_admin      boolean     NOT NULL,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);
CREATE INDEX conduit_crons_due ON conduit_crons (next_run_date) WHERE enabled AND next_run_date IS NOT NULL;
CREATE INDEX conduit_crons_thread ON conduit_crons (thread_id) WHERE thread_id IS NOT NULL;
