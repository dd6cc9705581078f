-- Whether an event a reorganisation took back had been shown final (a reorganisation deeper
-- than finality): the member's history says so in a sentence of its own.
ALTER TABLE chain_reversals ADD COLUMN was_final BIGINT NOT NULL DEFAULT 0;
