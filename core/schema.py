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
    # v7: what students send back, each outbox object ingested once (`answer_batches` names the
    # ones taken, in the transaction that takes their rows); the statistics fitted from the
    # answers, a new run whenever the answers change (never an edit); the triage of reported and
    # statistically flagged questions, one row per question and evidence seen.
    """
    CREATE TABLE answer_batches (
        batch_key VARCHAR PRIMARY KEY,
        batch_id VARCHAR NOT NULL,
        key_id VARCHAR NOT NULL,
        received_at TIMESTAMPTZ NOT NULL,
        answers INTEGER NOT NULL,
        ingested_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE answers (
        batch_key VARCHAR NOT NULL,
        row_index INTEGER NOT NULL,
        question_id VARCHAR NOT NULL,
        exam_id VARCHAR NOT NULL,
        learner_id VARCHAR NOT NULL,
        chosen_key VARCHAR,
        seconds DOUBLE NOT NULL,
        received_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE reports (
        report_id VARCHAR PRIMARY KEY,
        question_id VARCHAR NOT NULL,
        learner_id VARCHAR NOT NULL,
        reason VARCHAR NOT NULL,
        option VARCHAR,
        text VARCHAR NOT NULL,
        key_id VARCHAR NOT NULL,
        received_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE calibration_runs (
        run_id VARCHAR PRIMARY KEY,
        fitted_at TIMESTAMPTZ NOT NULL,
        answers BIGINT NOT NULL,
        learners INTEGER NOT NULL,
        items INTEGER NOT NULL,
        responses BIGINT NOT NULL,
        iterations INTEGER NOT NULL,
        converged BOOLEAN NOT NULL,
        log_likelihood DOUBLE NOT NULL
    );
    CREATE TABLE item_stats (
        run_id VARCHAR NOT NULL,
        question_id VARCHAR NOT NULL,
        correct_key VARCHAR NOT NULL,
        answers BIGINT NOT NULL,
        responses BIGINT NOT NULL,
        share_correct DOUBLE,
        skip_rate DOUBLE,
        pick_a DOUBLE, pick_b DOUBLE, pick_c DOUBLE, pick_d DOUBLE,
        strong_a DOUBLE, strong_b DOUBLE, strong_c DOUBLE, strong_d DOUBLE,
        option_pbis_a DOUBLE, option_pbis_b DOUBLE, option_pbis_c DOUBLE, option_pbis_d DOUBLE,
        point_biserial DOUBLE,
        irt_a DOUBLE,
        irt_b DOUBLE,
        band VARCHAR,
        PRIMARY KEY (run_id, question_id)
    );
    CREATE TABLE learner_abilities (
        run_id VARCHAR NOT NULL,
        learner_id VARCHAR NOT NULL,
        theta DOUBLE NOT NULL,
        responses BIGINT NOT NULL,
        PRIMARY KEY (run_id, learner_id)
    );
    CREATE TABLE triage (
        triage_id VARCHAR PRIMARY KEY,
        question_id VARCHAR NOT NULL,
        decided_at TIMESTAMPTZ NOT NULL,
        decision VARCHAR NOT NULL,
        reports INTEGER NOT NULL,
        run_id VARCHAR,
        flags VARCHAR NOT NULL,
        solves VARCHAR NOT NULL,
        why VARCHAR NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
# The migration that adds each question's group and family.
GROUPS_VERSION = 4
# The migrations after which rows with no group or family are filled by core.pool's rules.
REFILL_VERSIONS = frozenset({GROUPS_VERSION, 6})
