-- Failed sign-ins counted per email as typed (whether or not an account has it) and per
-- address, so the answers never tell which emails have accounts and an attacker cannot lock an
-- owner out (the account lock on five failures is gone: the mailed code stands between a
-- password and a session).
DROP TABLE login_failures;
CREATE TABLE sign_in_failures (
    email TEXT    NOT NULL,                  -- lower case
    ip    TEXT    NOT NULL,
    at    INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_email_at ON sign_in_failures(email, at);
CREATE INDEX sign_in_failures_ip_at ON sign_in_failures(ip, at);
