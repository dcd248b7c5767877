-- Caches of rarely written rows (docs/architecture.md, "Caches"): every statement that writes one of these tables
-- notifies crater_cache with the table's name at its commit, whichever replica, migration or client wrote it, and each
-- replica forgets what it kept of that table.
CREATE FUNCTION crater_cache_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('crater_cache', TG_TABLE_NAME);
    RETURN NULL;
END
$$;

CREATE TRIGGER accounts_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION crater_cache_changed();
CREATE TRIGGER account_members_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON account_members
    FOR EACH STATEMENT EXECUTE FUNCTION crater_cache_changed();
CREATE TRIGGER quotas_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON quotas
    FOR EACH STATEMENT EXECUTE FUNCTION crater_cache_changed();
CREATE TRIGGER member_limits_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON member_limits
    FOR EACH STATEMENT EXECUTE FUNCTION crater_cache_changed();
CREATE TRIGGER member_limit_resources_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON member_limit_resources
    FOR EACH STATEMENT EXECUTE FUNCTION crater_cache_changed();
CREATE TRIGGER approvals_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON approvals
    FOR EACH STATEMENT EXECUTE FUNCTION crater_cache_changed();
