-- Model tokens used by each principal per UTC day (io.conduit.persistence.PostgresTokenUsageStore), what
-- conduit.limits.per-principal.tokens-per-day is checked against. Written only while that budget is set; days past
-- are deleted by the service.
CREATE TABLE conduit_principal_usage (
    principal text   NOT NULL,
    day       date   NOT NULL,
    tokens    bigint NOT NULL,
    PRIMARY KEY (principal, day)
);
CREATE INDEX conduit_principal_usage_day ON conduit_principal_usage (day);
