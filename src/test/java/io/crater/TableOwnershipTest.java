package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every table has one owning feature, and a feature's SQL names only its own tables: another feature's rows are
 * reached through that feature's service. The owners are listed here, once; the migrations must create no table
 * that is not listed. The SQL that still crossed a wall when the check came in is listed file by file: it may
 * only shrink (a file that stops naming a listed table must leave the list), never grow.
 */
class TableOwnershipTest {

    /** Which feature owns each table. */
    static final Map<String, Set<String>> OWNERS = Map.ofEntries(
            Map.entry(
                    "identity",
                    Set.of(
                            "users",
                            "external_identities",
                            "signing_keys",
                            "refresh_tokens",
                            "login_failures",
                            "personal_access_tokens",
                            "ssh_keys",
                            "directory_syncs",
                            "oidc_logins",
                            "device_logins")),
            Map.entry(
                    "account",
                    Set.of("accounts", "account_members", "quotas", "member_limits", "member_limit_resources")),
            Map.entry("cluster", Set.of("accelerator_models")),
            Map.entry("approval", Set.of("approvals")),
            Map.entry("audit", Set.of("audit_log", "denied_attempts")),
            Map.entry(
                    "notify",
                    Set.of(
                            "notifications",
                            "notification_preferences",
                            "notification_thresholds",
                            "webhooks",
                            "webhook_events",
                            "webhook_deliveries")),
            Map.entry("events", Set.of("event_log")),
            Map.entry(
                    "job",
                    Set.of(
                            "jobs",
                            "job_requests",
                            "job_transitions",
                            "job_archives",
                            "job_events",
                            "job_notices",
                            "job_templates",
                            "job_template_versions",
                            "usage_intervals")),
            Map.entry("admission", Set.of("leader_epochs")),
            Map.entry(
                    "interactive",
                    Set.of("app_tickets", "app_sessions", "interactive_sessions", "ssh_host_keys", "app_activity")),
            Map.entry("idle", Set.of("idle_reclaims")),
            Map.entry("credential", Set.of("credentials")),
            Map.entry("assets", Set.of("assets", "asset_mounts")),
            Map.entry("downloads", Set.of("downloads", "download_runs")),
            Map.entry("images", Set.of("images", "image_shares", "image_checks", "image_builds")),
            Map.entry("tensorboard", Set.of("tensorboards", "tensorboard_sources")),
            Map.entry("mcp", Set.of("mcp_session_keys", "mcp_ended_sessions")),
            Map.entry(
                    "accounting",
                    Set.of(
                            "prices",
                            "ledger_entries",
                            "ledger_balances",
                            "budgets",
                            "budget_allotments",
                            "usage_hourly",
                            "usage_daily",
                            "settlement_state",
                            "statements",
                            "statement_lines",
                            "storage_charges")),
            Map.entry("files", Set.of("file_trash", "file_quotas", "tus_uploads")),
            Map.entry("gpus", Set.of("gpu_health_marks", "gpu_health_evidence", "gpu_health_nodes")));

    /**
     * SQL that still names another feature's tables, per file, each with the reason it has to: a read that must happen
     * in the same statement as the owner's rows. The list may only shrink, never grow.
     */
    static final Map<String, Set<String>> STILL_CROSSING = Map.of(
            // The waiting line leaves out jobs of archived accounts in the same statement (a submission racing an
            // archive never starts).
            "job/JobAdmissions.java", Set.of("accounts"));

    static final Pattern STRING = Pattern.compile("\"\"\"(.*?)\"\"\"|\"((?:[^\"\\\\]|\\\\.)*)\"", Pattern.DOTALL);
    static final Pattern TABLE = Pattern.compile("\\b(?:FROM|JOIN|UPDATE|INTO)\\s+([a-z_]+)");
    static final Pattern CREATE = Pattern.compile("CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)");

    static Map<String, String> ownerOfTable() {
        Map<String, String> out = new HashMap<>();
        OWNERS.forEach((feature, tables) -> tables.forEach(t -> out.put(t, feature)));
        return out;
    }

    @Test
    void everyTableHasAnOwner() throws IOException {
        Set<String> created = new TreeSet<>();
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Matcher m = CREATE.matcher(Files.readString(f));
                while (m.find()) {
                    created.add(m.group(1));
                }
            }
        }
        assertThat(ownerOfTable().keySet()).as("tables with an owner").containsExactlyInAnyOrderElementsOf(created);
    }

    @Test
    void featuresNameOnlyTheirOwnTables() throws IOException {
        Map<String, String> owner = ownerOfTable();
        Map<String, Set<String>> crossing = new TreeMap<>();
        Path root = Path.of("src/main/java/io/crater");
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String name = root.relativize(f).toString().replace('\\', '/');
                if (!name.contains("/")) {
                    continue; // the main class, no feature
                }
                String feature = name.substring(0, name.indexOf('/'));
                Matcher s = STRING.matcher(Files.readString(f));
                while (s.find()) {
                    String literal = s.group(1) != null ? s.group(1) : s.group(2);
                    Matcher t = TABLE.matcher(literal);
                    while (t.find()) {
                        String table = t.group(1);
                        if (owner.containsKey(table) && !owner.get(table).equals(feature)) {
                            crossing.computeIfAbsent(name, k -> new TreeSet<>()).add(table);
                        }
                    }
                }
            }
        }
        Map<String, Set<String>> newCrossings = new TreeMap<>();
        crossing.forEach((file, tables) -> {
            Set<String> extra = new TreeSet<>(tables);
            extra.removeAll(STILL_CROSSING.getOrDefault(file, Set.of()));
            if (!extra.isEmpty()) {
                newCrossings.put(file, extra);
            }
        });
        assertThat(newCrossings)
                .as("SQL naming another feature's tables (use that feature's service)")
                .isEmpty();
        Map<String, Set<String>> gone = new TreeMap<>();
        STILL_CROSSING.forEach((file, tables) -> {
            Set<String> left = new TreeSet<>(tables);
            left.removeAll(crossing.getOrDefault(file, Set.of()));
            if (!left.isEmpty()) {
                gone.put(file, left);
            }
        });
        assertThat(gone)
                .as("crossings that are gone: remove them from STILL_CROSSING")
                .isEmpty();
    }
}
