"""The warehouse's schema: one migration per version, applied in order by
`Warehouse.migrate`."""

from __future__ import annotations

# Each entry upgrades the schema by one version; never edit an entry that has shipped.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE questions (
        question_id VARCHAR PRIMARY KEY,
        subject VARCHAR NOT NULL,
        unit_id VARCHAR NOT NULL,
        chapter_id VARCHAR NOT NULL,
        topic_id VARCHAR NOT NULL,
        topic_name VARCHAR NOT NULL,
        difficulty VARCHAR NOT NULL,
        format VARCHAR NOT NULL,
        generator VARCHAR NOT NULL,
        template_id VARCHAR NOT NULL,
        content_json VARCHAR NOT NULL,
        record_json VARCHAR NOT NULL,
        created_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE attempts (
        attempt_id VARCHAR PRIMARY KEY,
        draft_id VARCHAR NOT NULL,
        subject VARCHAR NOT NULL,
        topic_id VARCHAR NOT NULL,
        difficulty VARCHAR NOT NULL,
        format VARCHAR NOT NULL,
        generator VARCHAR NOT NULL,
        template_id VARCHAR NOT NULL,
        solver VARCHAR NOT NULL,
        solver_choice VARCHAR,
        solver_confidence DOUBLE NOT NULL,
        verdict VARCHAR NOT NULL,
        rejection_reason VARCHAR,
        question_id VARCHAR,
        created_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE papers (
        exam_id VARCHAR PRIMARY KEY,
        kind VARCHAR NOT NULL,
        title VARCHAR NOT NULL,
        exam_date DATE,
        total_questions INTEGER NOT NULL,
        blueprint VARCHAR NOT NULL,
        record_json VARCHAR NOT NULL,
        created_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE paper_items (
        exam_id VARCHAR NOT NULL,
        position INTEGER NOT NULL,
        question_id VARCHAR NOT NULL,
        PRIMARY KEY (exam_id, position)
    );
    """,
    # v2: withdrawn questions (a separate record: the question itself never changes), and the
    # option order each paper shows its items in (NULL rows predate it: shown as stored).
    """
    CREATE TABLE withdrawals (
        question_id VARCHAR PRIMARY KEY,
        reason VARCHAR NOT NULL,
        withdrawn_at TIMESTAMPTZ NOT NULL
    );
    ALTER TABLE paper_items ADD COLUMN option_order VARCHAR;
    """,
    # v3: each question's published file, rendered once when the question is stored, so an
    # export writes bytes instead of rendering Markdown and MathML again (NULL: render then).
    """
    ALTER TABLE questions ADD COLUMN file_json VARCHAR;
    """,
    # v4: each question's near-duplicate group and family (core.pool), computed once when it
    # is stored; rows stored before are filled in by `migrate` (NULL until then).
    """
    ALTER TABLE questions ADD COLUMN near_duplicate_group VARCHAR;
    ALTER TABLE questions ADD COLUMN family VARCHAR;
    """,
    # v5: which record stands for a relabelled one, to inherit its papers (the cooldown).
    """
    CREATE TABLE relabellings (
        question_id VARCHAR PRIMARY KEY,
        successor_id VARCHAR NOT NULL,
        relabelled_at TIMESTAMPTZ NOT NULL
    );
    """,
    # v6: a fact format's near variant ("match_list_close") is the same form as its base, so
    # one family (core.pool.question_family): families stored with the suffix are refilled.
    """
    UPDATE questions SET family = NULL WHERE family LIKE '%\\_close' ESCAPE '\\';
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
# The migration that adds each question's group and family.
GROUPS_VERSION = 4
# The migrations after which rows with no group or family are filled by core.pool's rules.
REFILL_VERSIONS = frozenset({GROUPS_VERSION, 6})
