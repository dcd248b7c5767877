-- What an account's members may use, and the bandwidth caps of its jobs' pods. NULL everywhere is the platform's
-- default (every feature on; the caps of crater.jobs.ingress-bandwidth and egress-bandwidth), so existing accounts
-- keep working as before.
-- features: the account's own switches, {"ssh": false, "jupyter": true}; a feature not named takes the default.
ALTER TABLE accounts ADD COLUMN features jsonb;
-- Kubernetes quantities of bits per second ('100M'), or 'none' for no cap even where the platform sets one.
ALTER TABLE accounts ADD COLUMN ingress_bandwidth text;
ALTER TABLE accounts ADD COLUMN egress_bandwidth text;
