-- Failed sign-ins per email as typed and per address (SQLite's 0013 in PostgreSQL's words).
DROP TABLE login_failures;
CREATE TABLE sign_in_failures (
    email TEXT   NOT NULL,
    ip    TEXT   NOT NULL,
    at    BIGINT NOT NULL
);
CREATE INDEX sign_in_failures_email_at ON sign_in_failures(email, at);
CREATE INDEX sign_in_failures_ip_at ON sign_in_failures(ip, at);
