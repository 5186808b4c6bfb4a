-- A server process trusts a session it checked a few seconds ago (security/session-cache.ts).
-- Whatever ends or alters a session - a revocation, a user's row (role, customer, name, email,
-- password, disabled), a customer's name - is announced on the uvtrace_auth channel when it commits,
-- so every process on the database forgets what it knew (events/event-bus.ts), however the change
-- was made. The payload names the user or the customer.
CREATE OR REPLACE FUNCTION "notify_auth_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'customers' THEN
    PERFORM pg_notify('uvtrace_auth', json_build_object('customerId', NEW."id")::text);
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('uvtrace_auth', json_build_object('userId',
      CASE WHEN TG_OP = 'DELETE' THEN OLD."user_id" ELSE NEW."user_id" END)::text);
  ELSE
    PERFORM pg_notify('uvtrace_auth', json_build_object('userId',
      CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END)::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_notify_auth_change" AFTER UPDATE OF "revoked_at", "expires_at" OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "notify_auth_change"();
--> statement-breakpoint
CREATE TRIGGER "users_notify_auth_change" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_auth_change"();
--> statement-breakpoint
CREATE TRIGGER "customers_notify_auth_change" AFTER UPDATE OF "name" ON "customers"
  FOR EACH ROW EXECUTE FUNCTION "notify_auth_change"();
