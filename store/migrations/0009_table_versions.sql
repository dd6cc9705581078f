-- A version per table that kept answers depend on, moved by every insert, update and
-- delete of that table, so the admin snapshots (store::snapshots) are remade when their tables
-- change and kept when only others do (sessions, codes and lockouts are written all day).
CREATE TABLE table_versions (
    name    TEXT    PRIMARY KEY,
    version INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO table_versions (name) VALUES ('users'), ('ico_transactions'), ('ico_daily');

CREATE TRIGGER users_version_insert AFTER INSERT ON users
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'users'; END;
CREATE TRIGGER users_version_update AFTER UPDATE ON users
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'users'; END;
CREATE TRIGGER users_version_delete AFTER DELETE ON users
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'users'; END;

CREATE TRIGGER ico_transactions_version_insert AFTER INSERT ON ico_transactions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'ico_transactions'; END;
CREATE TRIGGER ico_transactions_version_update AFTER UPDATE ON ico_transactions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'ico_transactions'; END;
CREATE TRIGGER ico_transactions_version_delete AFTER DELETE ON ico_transactions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'ico_transactions'; END;

CREATE TRIGGER ico_daily_version_insert AFTER INSERT ON ico_daily
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'ico_daily'; END;
CREATE TRIGGER ico_daily_version_update AFTER UPDATE ON ico_daily
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'ico_daily'; END;
CREATE TRIGGER ico_daily_version_delete AFTER DELETE ON ico_daily
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'ico_daily'; END;
