package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.CraterTestResource;
import io.crater.identity.Caller;
import io.crater.identity.TokenService.TokenUser;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The job list at 100,000 jobs: every filter the API offers is answered by index walks, never by reading the
 * jobs table through or sorting it. The jobs are written in a transaction that is rolled back, so no other test
 * sees them.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class JobListIndexTest {

    @Inject
    JobQueries queries;

    @Test
    void everyListFilterIsAnIndexWalkAt100kJobs() throws Exception {
        var config = ConfigProvider.getConfig();
        try (Connection c = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getOptionalValue("quarkus.datasource.password", String.class)
                        .orElse(""))) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute(
                        "INSERT INTO accounts (slug, name, kind) VALUES ('idx-big', 'Big', 'team'), ('idx-small', 'Small', 'team')");
                s.execute(
                        "INSERT INTO users (username, display_name, role, password_hash, uid, slug)"
                                + " SELECT 'idx.u' || g, 'u' || g, 'user', 'x', 900000 + g, 'idx-u' || g FROM generate_series(1, 20) g");
                s.execute(
                        "INSERT INTO account_members (account_id, user_id, role)"
                                + " SELECT a.id, u.id, 'member' FROM accounts a, users u WHERE a.slug LIKE 'idx-%' AND u.username LIKE 'idx.u%'");
                // 100,000 finished jobs over two accounts and twenty users, of every kind and end state.
                s.execute(
                        "INSERT INTO jobs (public_id, account_id, user_id, name, kind, state, created_at)"
                                + " SELECT 'jidx' || g, CASE WHEN g % 10 = 0 THEN sa.id ELSE ba.id END,"
                                + " (SELECT min(id) FROM users WHERE username LIKE 'idx.u%') + g % 20, 'job ' || g,"
                                + " (ARRAY['custom','pytorch','jupyter','webide','inference'])[1 + g % 5],"
                                + " (ARRAY['Succeeded','Failed','Stopped'])[1 + g % 3],"
                                + " now() - make_interval(secs => 100000 - g)"
                                + " FROM generate_series(1, 100000) g,"
                                + " (SELECT id FROM accounts WHERE slug = 'idx-big') ba, (SELECT id FROM accounts WHERE slug = 'idx-small') sa");
                s.execute("ANALYZE jobs");
            }
            List<Long> accounts = new ArrayList<>();
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT id FROM accounts WHERE slug LIKE 'idx-%' ORDER BY id")) {
                while (rs.next()) {
                    accounts.add(rs.getLong(1));
                }
            }
            Caller member = new Caller(new TokenUser(Long.MAX_VALUE, "idx.u1", "u1", "user"), null);
            List<JobQueries.Filter> filters = List.of(
                    filter(null, null, null, false, null),
                    filter("Failed", null, null, false, null),
                    filter(null, "pytorch", null, false, null),
                    filter(null, null, "idx.u3", false, null),
                    filter(null, null, null, true, null),
                    filter(
                            "Succeeded",
                            "jupyter",
                            null,
                            false,
                            Instant.now().minusSeconds(3600).toString()));
            for (JobQueries.Filter f : filters) {
                List<Object> params = new ArrayList<>();
                String sql = queries.listSql(member, f, accounts, params);
                String plan = explain(c, sql, params);
                var time = java.util.regex.Pattern.compile("Execution Time: ([0-9.]+) ms")
                        .matcher(plan);
                System.out.printf(
                        "job list at 100,000 jobs, filter %s: %s ms in PostgreSQL%n",
                        describe(f), time.find() ? time.group(1) : "?");
                assertThat(plan).as(f + "\n" + plan).doesNotContain("Seq Scan on jobs");
                assertThat(plan).as(f + "\n" + plan).contains("Index Scan");
                if (Boolean.getBoolean("crater.print.plans")) {
                    System.out.println(plan);
                }
                // Each account's walk stops after about a page: no step reads or throws away thousands of rows.
                for (String line : plan.split("\n")) {
                    var rows = java.util.regex.Pattern.compile("(?:rows=|Removed by Filter: )([0-9]+)")
                            .matcher(line);
                    while (rows.find()) {
                        assertThat(Long.parseLong(rows.group(1)))
                                .as(f + "\n" + plan)
                                .isLessThan(1000);
                    }
                }
            }
            c.rollback();
        }
    }

    static String describe(JobQueries.Filter f) {
        List<String> parts = new ArrayList<>();
        if (f.state() != null) {
            parts.add("state=" + f.state());
        }
        if (f.kind() != null) {
            parts.add("kind=" + f.kind());
        }
        if (f.owner() != null) {
            parts.add("owner");
        }
        if (f.mine()) {
            parts.add("mine");
        }
        if (f.since() != null) {
            parts.add("since");
        }
        return parts.isEmpty() ? "none" : String.join(",", parts);
    }

    static JobQueries.Filter filter(String state, String kind, String owner, boolean mine, String since) {
        return new JobQueries.Filter(null, state, kind, null, owner, mine, since, null, null, null, null);
    }

    /** EXPLAIN ANALYZE of the statement with its positional parameters bound. */
    static String explain(Connection c, String sql, List<Object> params) throws Exception {
        String jdbc = sql.replaceAll("\\?[0-9]+", "?");
        // Positional parameters may repeat (?1 in every branch): bind each occurrence in order.
        List<Object> ordered = new ArrayList<>();
        var m = java.util.regex.Pattern.compile("\\?([0-9]+)").matcher(sql);
        while (m.find()) {
            ordered.add(params.get(Integer.parseInt(m.group(1)) - 1));
        }
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, COSTS OFF) " + jdbc)) {
            for (int i = 0; i < ordered.size(); i++) {
                Object v = ordered.get(i);
                if (v instanceof Instant t) {
                    ps.setTimestamp(i + 1, Timestamp.from(t));
                } else {
                    ps.setObject(i + 1, v);
                }
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }
}
