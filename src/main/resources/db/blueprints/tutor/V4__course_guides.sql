-- The tutor blueprint's teaching guides, one per course subject, read by its get_guide tool when
-- conduit.blueprints.tutor.guide.source=postgres.
CREATE TABLE conduit_course_guides (
    subject    text        PRIMARY KEY,
    guide      text        NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
