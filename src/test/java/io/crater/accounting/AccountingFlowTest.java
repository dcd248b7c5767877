package io.crater.accounting;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.crater.Api;
import io.crater.Db;
import io.crater.job.Flows;
import io.crater.policy.PriceBook;
import io.crater.policy.Settlement;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Accounting end to end: prices set by a platform admin, a job's held time charged exactly from its usage intervals,
 * a ledger whose balances are the sums of their entries, budgets that hold jobs back with their numbers until a
 * top-up, reports with hand-computed figures and their CSV, and who may see and change what.
 */
@QuarkusTest
@QuarkusTestResource(value = io.crater.CraterTestResource.class, restrictToAnnotatedClass = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AccountingFlowTest {

    static final String PW = "Ledger-pass-2026";
    static final String RTX = "nvidia-rtx-4090";

    static Map<String, Object> job(String name, int gpus, String timeLimit) {
        Map<String, Object> m = new HashMap<>(Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "train.py"),
                "resources",
                Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", RTX, "accelerators", gpus)));
        m.put("timeLimit", timeLimit);
        return m;
    }

    /** Settles now; a run another replica (or the minute's own run) holds is waited out. */
    static JsonPath settle() {
        JsonPath[] run = new JsonPath[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            run[0] = admin().post("/api/v1/accounting/settle")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            return run[0].getLong("run") > 0;
        });
        return run[0];
    }

    static void price(String resource, String perHour) {
        admin().body(Map.of("resource", resource, "pricePerHour", perHour))
                .post("/api/v1/accounting/prices")
                .then()
                .statusCode(201)
                .body("pricePerHour", equalTo(perHour));
    }

    @Test
    @Order(1)
    void pricesAreSetByPlatformAdminsOnlyAndBadOnesChangeNothing() {
        String member = Api.user("ac.mia", PW);
        as(member)
                .body(Map.of("resource", RTX, "pricePerHour", "1"))
                .post("/api/v1/accounting/prices")
                .then()
                .statusCode(403)
                .body("code", equalTo("NotPlatformAdmin"));
        admin().body(Map.of("resource", RTX, "pricePerHour", "-1"))
                .post("/api/v1/accounting/prices")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("pricePerHour"));
        admin().body(Map.of("resource", RTX, "pricePerHour", "1.1234567"))
                .post("/api/v1/accounting/prices")
                .then()
                .statusCode(400)
                .body("errors.message", hasItem("at most 6 decimals"));
        admin().body(Map.of("resource", RTX, "pricePerHour", "1", "effectiveFrom", "2020-01-01T00:00:00Z"))
                .post("/api/v1/accounting/prices")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("effectiveFrom"));
        as(member)
                .get("/api/v1/accounting/prices")
                .then()
                .statusCode(200)
                .body("current.resource", org.hamcrest.Matchers.not(hasItem(RTX)));

        price(RTX, "2.5");
        price("cpu", "0.04");
        price("memory", "0.005");
        as(member)
                .get("/api/v1/accounting/prices")
                .then()
                .statusCode(200)
                .body("currency", equalTo("points"))
                .body("current.resource", org.hamcrest.Matchers.hasItems("cpu", "memory", RTX))
                .body("current.find { it.resource == 'memory' }.unit", equalTo("GiB-hour"))
                .body("current.find { it.resource == '" + RTX + "' }.unit", equalTo("device-hour"))
                .body(
                        "history.findAll { it.resource == '" + RTX + "' }.pricePerHour",
                        org.hamcrest.Matchers.contains("2.5"));
    }

    @Test
    @Order(2)
    void aJobIsChargedExactlyWhatItHeldAndTheLedgerBalances() throws Exception {
        String owner = Api.user("ac.oli", PW);
        Flows.account(
                "ac-team",
                List.of(line(RTX, "4", "4"), line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")),
                "ac.oli");
        String id = Flows.submit(owner, "ac-team", job("charged", 2, "1h"));
        Flows.awaitRunning(owner, id);
        Thread.sleep(1500); // it holds for a while
        as(owner).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> "Stopped".equals(Flows.state(owner, id)));
        // Its end is settled at once (a second after it), not at the next minute's run.
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Db.count("SELECT count(*) FROM usage_intervals u JOIN jobs j ON j.id = u.job_id"
                                + " WHERE j.public_id = '" + id + "' AND u.charged_until = u.ended_at")
                        == 3);
        settle();

        // Exactly what the intervals say: 2 GPUs, 2 cores and 8 GiB from admission to the end, at the prices.
        PriceBook book = new PriceBook(List.of(
                new PriceBook.Price(RTX, 2_500_000, Instant.EPOCH),
                new PriceBook.Price("cpu", 40_000, Instant.EPOCH),
                new PriceBook.Price("memory", 5_000, Instant.EPOCH)));
        long expected = 0;
        int intervals = 0;
        try (Connection c = Db.connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT u.resource, u.milli, u.started_at, u.ended_at,"
                                + " u.charged_micros FROM usage_intervals u JOIN jobs j ON j.id = u.job_id WHERE j.public_id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    intervals++;
                    Instant from = rs.getTimestamp(3).toInstant();
                    Instant to = rs.getTimestamp(4).toInstant();
                    long cost = Settlement.cumulative(
                            new Settlement.Holding(rs.getString(1), rs.getLong(2)), from, to, book, 1000);
                    assertThat(rs.getLong(5))
                            .as("charged for %s", rs.getString(1))
                            .isEqualTo(cost);
                    expected += cost;
                }
            }
        }
        assertThat(intervals).as("cpu, memory and the model").isEqualTo(3);
        assertThat(expected).isPositive();

        JsonPath ledger = as(owner)
                .get("/api/v1/accounting/accounts/ac-team/ledger")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<Long> charges = ledger.getList("items.findAll { it.kind == 'charge' }.amountMicros", Long.class);
        assertThat(charges.stream().mapToLong(Long::longValue).sum()).isEqualTo(-expected);
        assertThat(ledger.getList("items.job", String.class)).containsOnly(id);

        JsonPath money = as(owner)
                .get("/api/v1/accounting/accounts/ac-team/budget")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(money.getLong("balanceMicros")).isEqualTo(-expected);
        assertThat(money.getLong("spentMicros")).isEqualTo(expected);
        assertThat(money.getString("budget")).isNull();

        // Settling again charges nothing twice.
        settle();
        assertThat(as(owner)
                        .get("/api/v1/accounting/accounts/ac-team/budget")
                        .then()
                        .extract()
                        .jsonPath()
                        .getLong("balanceMicros"))
                .isEqualTo(-expected);

        // The balance is a metric too, by the account's slug.
        String metrics = io.restassured.RestAssured.get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(metrics).contains("crater_account_balance{account=\"ac-team\"} " + (-expected / 1_000_000.0));
        admin().get("/api/v1/accounting/check")
                .then()
                .statusCode(200)
                .body("sum", equalTo(0))
                .body("mismatched", org.hamcrest.Matchers.empty());
    }

    @Test
    @Order(3)
    void aBudgetHoldsAJobBackWithItsNumbersUntilATopUp() {
        String owner = Api.user("ac.bea", PW);
        String stranger = Api.user("ac.sam", PW);
        Flows.account(
                "ac-budget",
                List.of(line(RTX, "4", "4"), line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")),
                "ac.bea");
        as(owner)
                .body(Map.of("amount", "10"))
                .put("/api/v1/accounting/accounts/ac-budget/budget")
                .then()
                .statusCode(403);
        admin().body(Map.of("amount", "ten", "period", "year", "policy", "maybe"))
                .put("/api/v1/accounting/accounts/ac-budget/budget")
                .then()
                .statusCode(400)
                .body("errors.field", org.hamcrest.Matchers.containsInAnyOrder("amount", "period", "policy"));
        admin().body(Map.of("amount", "1", "period", "month", "policy", "hard"))
                .put("/api/v1/accounting/accounts/ac-budget/budget")
                .then()
                .statusCode(200)
                .body("balanceMicros", equalTo(1_000_000))
                .body("budget.policy", equalTo("hard"));
        as(stranger).get("/api/v1/accounting/accounts/ac-budget/budget").then().statusCode(403);

        // 2 GPUs for 2 h at 2.5 is 10, far beyond the 1 left: the job waits and says so with the numbers.
        String id = Flows.submit(owner, "ac-budget", job("costly", 2, "2h"));
        try {
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                JsonPath j =
                        as(owner).get("/api/v1/jobs/" + id).then().extract().jsonPath();
                assertThat(j.getString("job.state")).isEqualTo("Queued");
                assertThat(j.getList("job.reasons.code", String.class)).contains("BudgetExhausted");
                Map<String, Object> numbers = j.getMap("job.reasons.find { it.code == 'BudgetExhausted' }.numbers");
                assertThat(((Number) numbers.get("remainingMicros")).longValue())
                        .isEqualTo(1_000_000L);
                // 2 × 2.5 + 2 cores × 0.04 + 8 GiB × 0.005 per hour, for 2 hours
                assertThat(((Number) numbers.get("projectedMicros")).longValue())
                        .isEqualTo(2 * (5_000_000L + 80_000 + 40_000));
            });

            // A low-priority job of the same shape pays half (the test profile's factor): its projection says so.
            Map<String, Object> low = job("costly-low", 2, "2h");
            low.put("priority", "low");
            String cheap = Flows.submit(owner, "ac-budget", low);
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(
                                    as(owner)
                                            .get("/api/v1/jobs/" + cheap)
                                            .then()
                                            .extract()
                                            .jsonPath()
                                            .getLong(
                                                    "job.reasons.find { it.code == 'BudgetExhausted' }.numbers.projectedMicros"))
                            .isEqualTo(10_240_000L / 2));
            as(owner).post("/api/v1/jobs/" + cheap + "/stop").then().statusCode(200);

            // Its wait has no start time: capacity says nothing of when money comes.
            as(owner)
                    .get("/api/v1/jobs/" + id + "/wait")
                    .then()
                    .statusCode(200)
                    .body("estimate.startBy", org.hamcrest.Matchers.nullValue())
                    .body("estimate.unknown.code", equalTo("WaitsForBudget"))
                    .body("estimate.unknown.numbers.projectedMicros", equalTo(10_240_000));

            // A retried top-up posts once.
            for (int i = 0; i < 2; i++) {
                admin().header("Idempotency-Key", "ac-budget-topup-1")
                        .body(Map.of("amount", "20", "note", "grant 42"))
                        .post("/api/v1/accounting/accounts/ac-budget/budget/top-ups")
                        .then()
                        .statusCode(200)
                        .body("balanceMicros", equalTo(21_000_000));
            }
            Flows.awaitRunning(owner, id);
        } finally {
            as(owner).post("/api/v1/jobs/" + id + "/stop");
        }
    }

    @Test
    @Order(4)
    void reportsAddUpAFixedHistoryAndExportCsv() throws Exception {
        String owner = Api.user("ac.rex", PW);
        String other = Api.user("ac.ida", PW);
        Flows.account(
                "ac-report",
                List.of(line(RTX, "4", "4"), line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")),
                "ac.rex",
                "ac.ida");
        String id = Flows.submit(owner, "ac-report", job("history", 1, "1h"));
        Flows.awaitRunning(owner, id);
        as(owner).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> "Stopped".equals(Flows.state(owner, id)));
        settle();
        // A fixed history beside it: 3 GPUs held for exactly 2 hours, a week ago, by the same job.
        Instant start = Instant.parse("2026-11-20T10:00:00Z");
        try (Connection c = Db.connection();
                PreparedStatement s = c.prepareStatement("INSERT INTO usage_intervals (job_id, account_id, user_id,"
                        + " resource, milli, backfill, started_at, ended_at, charged_until) SELECT id, account_id,"
                        + " user_id, ?, 3000, false, ?, ?, ? FROM jobs WHERE public_id = ?")) {
            s.setString(1, RTX);
            s.setTimestamp(2, Timestamp.from(start));
            s.setTimestamp(3, Timestamp.from(start.plus(Duration.ofHours(2))));
            s.setTimestamp(4, Timestamp.from(start));
            s.setString(5, id);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        // Two jobs of the same day that waited 30 s and 90 s for admission.
        try (Connection c = Db.connection();
                PreparedStatement s = c.prepareStatement("INSERT INTO jobs (public_id, account_id, user_id, name,"
                        + " kind, state, created_at, admitted_at) SELECT ?, account_id, user_id, 'waited', 'custom',"
                        + " 'Succeeded', ?, ? FROM jobs WHERE public_id = ?")) {
            for (int[] w : new int[][] {{1, 30}, {2, 90}}) {
                Instant submitted = start.plus(Duration.ofMinutes(w[0]));
                s.setString(1, "jwaited" + w[0]);
                s.setTimestamp(2, Timestamp.from(submitted));
                s.setTimestamp(3, Timestamp.from(submitted.plusSeconds(w[1])));
                s.setString(4, id);
                assertThat(s.executeUpdate()).isEqualTo(1);
            }
        }
        // The price then: none was in force before this class set it, so the history is free of charge; its
        // held time counts all the same.
        settle();
        JsonPath report = as(owner)
                .queryParam("account", "ac-report")
                .queryParam("from", "2026-11-20")
                .queryParam("to", "2026-11-21")
                .queryParam("by", "day")
                .get("/api/v1/accounting/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(report.getList("rows.key", String.class)).containsExactly("2026-11-20");
        assertThat(report.getDouble("rows[0].held")).isEqualTo(6.0);
        assertThat(report.getString("rows[0].unit")).isEqualTo("device-hours");
        assertThat(report.getLong("totalMicros")).isZero();
        // Jobs admitted that day: how many, and their mean and 90th-percentile wait (30 + 0.9 × (90 − 30) s).
        assertThat(report.getList("waits.key", String.class)).containsExactly("2026-11-20");
        assertThat(report.getLong("waits[0].jobs")).isEqualTo(2);
        assertThat(report.getDouble("waits[0].meanSeconds")).isEqualTo(60.0);
        assertThat(report.getDouble("waits[0].p90Seconds")).isEqualTo(84.0);

        // A member sees only their own usage; grouping by account is for admins.
        JsonPath theirs = as(other)
                .queryParam("account", "ac-report")
                .queryParam("by", "user")
                .get("/api/v1/accounting/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(theirs.getList("rows")).isEmpty();
        as(other)
                .queryParam("by", "account")
                .get("/api/v1/accounting/usage")
                .then()
                .statusCode(403);
        as(other)
                .queryParam("account", "ac-report")
                .queryParam("from", "yesterday")
                .get("/api/v1/accounting/usage")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("from"));

        String csv = as(owner)
                .queryParam("account", "ac-report")
                .queryParam("by", "user")
                .queryParam("format", "csv")
                .get("/api/v1/accounting/usage")
                .then()
                .statusCode(200)
                .contentType(org.hamcrest.Matchers.startsWith("text/csv"))
                .extract()
                .asString();
        List<String> lines = new ArrayList<>(List.of(csv.split("\r\n")));
        assertThat(lines.get(0))
                .isEqualTo("account,from,to,group,resource,unit,held,cost,currency,measured,used,unknown,efficiency,"
                        + "idle_cost,jobs,wait_mean_s,wait_p90_s");
        assertThat(lines.subList(1, lines.size())).allMatch(l -> l.startsWith("ac-report,") && l.contains(",ac.rex,"));
        assertThat(lines.subList(1, lines.size()).stream().map(l -> l.split(",")[4]))
                .contains("cpu", "memory", RTX);
    }

    @Test
    @Order(5)
    void aSoftBudgetWarnsOnlyAndAStopBudgetStopsRunningJobsAfterItsGrace() {
        String owner = Api.user("ac.sol", PW);
        Flows.account(
                "ac-policies",
                List.of(line(RTX, "4", "4"), line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")),
                "ac.sol");
        // Soft: far over the budget, and admitted all the same.
        admin().body(Map.of("amount", "0.5", "policy", "soft"))
                .put("/api/v1/accounting/accounts/ac-policies/budget")
                .then()
                .statusCode(200);
        String soft = Flows.submit(owner, "ac-policies", job("soft", 1, "1h"));
        try {
            Flows.awaitRunning(owner, soft);
        } finally {
            as(owner).post("/api/v1/jobs/" + soft + "/stop");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> "Stopped".equals(Flows.state(owner, soft)));
        settle();

        // Stop: the job fits when it starts; once the budget is gone for the grace (1 s here) it is stopped.
        admin().body(Map.of("amount", "50", "policy", "stop"))
                .put("/api/v1/accounting/accounts/ac-policies/budget")
                .then()
                .statusCode(200)
                .body("budget.amountMicros", equalTo(50_000_000))
                // Changed within the period: what the soft job spent stays spent.
                .body("spentMicros", org.hamcrest.Matchers.greaterThan(0))
                .body("balanceMicros", org.hamcrest.Matchers.lessThan(50_000_000));
        String stopped = Flows.submit(owner, "ac-policies", job("stopped", 1, "1h"));
        try {
            Flows.awaitRunning(owner, stopped);
            admin().body(Map.of("amount", "0.000001", "policy", "stop"))
                    .put("/api/v1/accounting/accounts/ac-policies/budget")
                    .then()
                    .statusCode(200);
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        settle();
                        return "Stopped".equals(Flows.state(owner, stopped));
                    });
            JsonPath detail =
                    as(owner).get("/api/v1/jobs/" + stopped).then().extract().jsonPath();
            assertThat(detail.getList("history.reason", String.class)).contains("BudgetStopped");
            assertThat(detail.getString("stateReason")).isEqualTo("BudgetStopped");
        } finally {
            as(owner).post("/api/v1/jobs/" + stopped + "/stop");
        }
        admin().get("/api/v1/accounting/check")
                .then()
                .statusCode(200)
                .body("mismatched", org.hamcrest.Matchers.empty());
        // Each replica also checks the ledger on its first settlement run (a minute after start) and exports it.
        await().atMost(Duration.ofSeconds(90))
                .until(() -> io.restassured.RestAssured.get("/q/metrics")
                        .then()
                        .extract()
                        .asString()
                        .contains("crater_ledger_mismatched 0.0"));
    }

    /**
     * A month that is over gets one statement per account: its lines from what was held in it (at the prices then),
     * its balances and movements from the ledger, written once and refused any change; only the account's admins
     * read it.
     */
    @Test
    @Order(6)
    void aMonthThatIsOverGetsOneImmutableStatementPerAccount() throws Exception {
        String sam = Api.user("ac.sam", PW);
        String mia = Api.user("ac.mia", PW);
        Flows.account("ac-stmt", List.of(line("cpu", "4", "4")), "ac.mia");
        admin().body(Map.of("role", "admin"))
                .put("/api/v1/accounts/ac-stmt/members/ac.sam")
                .then()
                .statusCode(200);
        java.time.YearMonth last =
                java.time.YearMonth.now(java.time.ZoneOffset.UTC).minusMonths(1);
        Instant start = last.atDay(10).atTime(10, 0).toInstant(java.time.ZoneOffset.UTC);
        try (Connection c = Db.connection();
                java.sql.Statement s = c.createStatement()) {
            // A model of its own, priced 2 points per device-hour since the month began, held by mia: 2 devices
            // for 3 hours.
            s.execute("INSERT INTO prices (resource, micros_per_hour, effective_from, created_by) VALUES"
                    + " ('stmt-model', 2000000, '" + last.atDay(1) + "T00:00:00Z', 'test')");
            held(s, "jstmt1", "ac-stmt", "ac.mia", "stmt-model", 2000, start, Duration.ofHours(3));
        }
        settle();

        JsonPath list = as(sam).get("/api/v1/accounting/accounts/ac-stmt/statements")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(list.getList("items.period", String.class)).containsExactly(last.toString());
        JsonPath one = as(sam).get("/api/v1/accounting/accounts/ac-stmt/statements/" + last)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(one.getString("account")).isEqualTo("ac-stmt");
        assertThat(one.getString("summary.from")).isEqualTo(last.atDay(1) + "T00:00:00Z");
        // Nothing was posted in that month: its charge is posted now, and counts in this month's movements.
        assertThat(one.getLong("summary.openingMicros")).isZero();
        assertThat(one.getLong("summary.closingMicros")).isZero();
        assertThat(one.getList("lines.user", String.class)).containsExactly("ac.mia");
        assertThat(one.getString("lines[0].resource")).isEqualTo("stmt-model");
        assertThat(one.getDouble("lines[0].held")).isEqualTo(6.0);
        assertThat(one.getString("lines[0].cost")).isEqualTo("12");
        assertThat(one.getString("lines[0].measured"))
                .as("never measured: unknown")
                .isEqualTo("0.0");

        String csv = as(sam).queryParam("format", "csv")
                .get("/api/v1/accounting/accounts/ac-stmt/statements/" + last)
                .then()
                .statusCode(200)
                .contentType(org.hamcrest.Matchers.startsWith("text/csv"))
                .extract()
                .asString();
        assertThat(csv.split("\r\n"))
                .containsExactly(
                        "account,period,user,resource,unit,held,measured,used,cost,currency",
                        "ac-stmt," + last + ",ac.mia,stmt-model,device-hours,6.0,0.0,0.0,12,points");

        // Written once: another run adds nothing, and the database refuses any change.
        settle();
        assertThat(Db.count("SELECT count(*) FROM statements s JOIN accounts a ON a.id = s.account_id"
                        + " WHERE a.slug = 'ac-stmt'"))
                .isEqualTo(1);
        try (Connection c = Db.connection();
                java.sql.Statement s = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> s.execute("UPDATE statements SET closing_micros = 1"))
                    .hasMessageContaining("statements are immutable");
        }

        as(mia).get("/api/v1/accounting/accounts/ac-stmt/statements")
                .then()
                .statusCode(403)
                .body("code", equalTo("NotAccountAdmin"));
        as(sam).get("/api/v1/accounting/accounts/ac-stmt/statements/last-month")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("period"));
        as(sam).get("/api/v1/accounting/accounts/ac-stmt/statements/" + last.minusMonths(1))
                .then()
                .statusCode(404);
    }

    @Test
    @Order(7)
    void theGpuHistorySumsEveryAccountsHoursPerModel() throws Exception {
        String hal = Api.user("ac.hal", PW);
        Api.user("ac.ivy", PW);
        Flows.account("ac-hist-a", List.of(line("cpu", "4", "4")), "ac.hal");
        Flows.account("ac-hist-b", List.of(line("cpu", "4", "4")), "ac.ivy");
        Instant thisHour = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS);
        Instant twoAgo = thisHour.minus(Duration.ofHours(2));
        Instant threeAgo = thisHour.minus(Duration.ofHours(3));
        // Two hours ago: ac-hist-a held 2 devices for the hour (2 device-hours measured, 1 busy), ac-hist-b 1 device
        // unmeasured, and CPU beside it; three hours ago ac-hist-b held 1 device for half an hour.
        try (Connection c = Db.connection();
                PreparedStatement s = c.prepareStatement("INSERT INTO usage_hourly (account_id, user_id, resource,"
                        + " hour, held_milli_s, cost_micros, measured_ms, used_ms) SELECT a.id, u.id, ?, ?, ?, 0, ?, ?"
                        + " FROM accounts a, users u WHERE a.slug = ? AND u.username = ?")) {
            Object[][] rows = {
                {"hist-model", twoAgo, 7_200_000L, 7_200_000L, 3_600_000L, "ac-hist-a", "ac.hal"},
                {"hist-model", twoAgo, 3_600_000L, 0L, 0L, "ac-hist-b", "ac.ivy"},
                {"cpu", twoAgo, 14_400_000L, 0L, 0L, "ac-hist-a", "ac.hal"},
                {"hist-model", threeAgo, 1_800_000L, 0L, 0L, "ac-hist-b", "ac.ivy"}
            };
            for (Object[] r : rows) {
                s.setString(1, (String) r[0]);
                s.setTimestamp(2, Timestamp.from((Instant) r[1]));
                s.setLong(3, (Long) r[2]);
                s.setLong(4, (Long) r[3]);
                s.setLong(5, (Long) r[4]);
                s.setString(6, (String) r[5]);
                s.setString(7, (String) r[6]);
                assertThat(s.executeUpdate()).isEqualTo(1);
            }
        }

        // A plain member of one account reads the sums over both.
        JsonPath h = as(hal).get("/api/v1/cluster/gpu-history?hours=6")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(h.getInt("hours")).isEqualTo(6);
        assertThat(h.getList("models.model", String.class))
                .contains("hist-model")
                .doesNotContain("cpu", "memory");
        String model = "models.find { it.model == 'hist-model' }";
        assertThat(h.getLong(model + ".total")).as("no node has the model").isZero();
        assertThat(h.getList(model + ".points")).hasSize(6);
        assertThat(h.getList(model + ".points.partial", Boolean.class))
                .as("only the current hour is unfinished")
                .containsExactly(false, false, false, false, false, true);
        String two = model + ".points.find { it.hour == '" + twoAgo + "' }";
        assertThat(h.getDouble(two + ".allocated")).isEqualTo(3.0);
        assertThat(h.getDouble(two + ".measured")).isEqualTo(2.0);
        assertThat(h.getDouble(two + ".used")).isEqualTo(1.0);
        assertThat(h.getDouble(two + ".efficiency")).isEqualTo(0.5);
        String three = model + ".points.find { it.hour == '" + threeAgo + "' }";
        assertThat(h.getDouble(three + ".allocated")).isEqualTo(0.5);
        assertThat(h.getString(three + ".efficiency")).as("nothing measured").isNull();
        String gap = model + ".points.find { it.hour == '" + thisHour.minus(Duration.ofHours(1)) + "' }";
        assertThat(h.getDouble(gap + ".allocated")).isZero();

        // The catalogue's model carries the cards the cluster has of it now.
        long cards = admin().get("/api/v1/cluster/accelerators")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getLong("items.find { it.model == '" + RTX + "' }.total");
        assertThat(cards).isPositive();
        assertThat(h.getLong("models.find { it.model == '" + RTX + "' }.total")).isEqualTo(cards);

        // The last hour alone: nothing of the model was held in it and no node has it, so it is left out.
        as(hal).get("/api/v1/cluster/gpu-history?hours=1")
                .then()
                .statusCode(200)
                .body("models.model", org.hamcrest.Matchers.not(hasItem("hist-model")));
        for (String bad : List.of("0", "721", "week")) {
            as(hal).get("/api/v1/cluster/gpu-history?hours=" + bad)
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors[0].field", equalTo("hours"));
        }
        io.restassured.RestAssured.given()
                .get("/api/v1/cluster/gpu-history")
                .then()
                .statusCode(401);
        // The rows were written to the hourly rollup alone: the daily one and the reports must not meet them.
        try (Connection c = Db.connection();
                java.sql.Statement s = c.createStatement()) {
            s.execute("DELETE FROM usage_hourly WHERE account_id IN (SELECT id FROM accounts WHERE slug IN"
                    + " ('ac-hist-a', 'ac-hist-b'))");
        }
    }

    @Test
    @Order(8)
    void aWeeklyBudgetsAccountGetsAStatementPerWeekBesideTheMonthlyOnes() throws Exception {
        String wes = Api.user("ac.wes", PW);
        Flows.account("ac-week", List.of(line("cpu", "4", "4")), "ac.wes");
        admin().body(Map.of("role", "admin"))
                .put("/api/v1/accounts/ac-week/members/ac.wes")
                .then()
                .statusCode(200);
        admin().body(Map.of("amount", "50", "period", "week", "policy", "soft"))
                .put("/api/v1/accounting/accounts/ac-week/budget")
                .then()
                .statusCode(200);
        java.time.LocalDate monday = java.time.LocalDate.now(java.time.ZoneOffset.UTC)
                .with(java.time.temporal.TemporalAdjusters.previousOrSame(java.time.DayOfWeek.MONDAY))
                .minusWeeks(1);
        String week = String.format(
                "%04d-W%02d",
                monday.get(java.time.temporal.IsoFields.WEEK_BASED_YEAR),
                monday.get(java.time.temporal.IsoFields.WEEK_OF_WEEK_BASED_YEAR));
        Instant start = monday.plusDays(2).atTime(10, 0).toInstant(java.time.ZoneOffset.UTC);
        try (Connection c = Db.connection();
                java.sql.Statement s = c.createStatement()) {
            // The model priced at 2 points per device-hour by the monthly test: 2 devices for 2 hours last week.
            held(s, "jweek1", "ac-week", "ac.wes", "stmt-model", 2000, start, Duration.ofHours(2));
        }
        settle();

        List<String> periods = as(wes).get("/api/v1/accounting/accounts/ac-week/statements")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.period", String.class);
        String month =
                java.time.YearMonth.from(start.atZone(java.time.ZoneOffset.UTC)).toString();
        boolean monthOver = !java.time.YearMonth.from(start.atZone(java.time.ZoneOffset.UTC))
                .equals(java.time.YearMonth.now(java.time.ZoneOffset.UTC));
        assertThat(periods).contains(week);
        assertThat(periods).hasSize(monthOver ? 2 : 1);
        JsonPath one = as(wes).get("/api/v1/accounting/accounts/ac-week/statements/" + week)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(one.getString("summary.period")).isEqualTo(week);
        assertThat(one.getString("summary.from")).isEqualTo(monday + "T00:00:00Z");
        assertThat(one.getString("summary.to")).isEqualTo(monday.plusWeeks(1) + "T00:00:00Z");
        assertThat(one.getDouble("lines[0].held")).isEqualTo(4.0);
        assertThat(one.getString("lines[0].cost")).isEqualTo("8");
        if (monthOver) {
            as(wes).get("/api/v1/accounting/accounts/ac-week/statements/" + month)
                    .then()
                    .statusCode(200)
                    .body("lines[0].held", equalTo(4.0f));
        }
        as(wes).get("/api/v1/accounting/accounts/ac-week/statements/2026-W60")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("period"));
        // An account whose budget is monthly gets no weekly statement.
        assertThat(Db.count("SELECT count(*) FROM statements s JOIN accounts a ON a.id = s.account_id"
                        + " WHERE a.slug = 'ac-stmt' AND s.period LIKE '%-W%'"))
                .isZero();
    }

    static final String ALLOT = "/api/v1/accounting/accounts/ac-allot/budget/allotments";

    /**
     * A member's allotment inside the budget: set by the account's admin only, checked with field errors that change
     * nothing, holding the member's job back with its numbers while another member's job starts, counting what the
     * member's jobs were charged this period, telling the member at 100 %, and removed again.
     */
    @Test
    @Order(9)
    void anAllotmentHoldsOneMembersJobsBackWithItsNumbers() throws Exception {
        String ann = Api.user("ac.ann", PW);
        String lee = Api.user("ac.lee", PW);
        String bob = Api.user("ac.bob", PW);
        String sam = Api.user("ac.sam", PW);
        Flows.account(
                "ac-allot",
                List.of(line(RTX, "4", "4"), line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")),
                "ac.ann",
                "ac.bob");
        admin().body(Map.of("role", "admin"))
                .put("/api/v1/accounts/ac-allot/members/ac.lee")
                .then()
                .statusCode(200);
        as(lee).body(Map.of("amount", "1")).put(ALLOT + "/ac.ann").then().statusCode(409);
        as(lee).get(ALLOT).then().statusCode(200).body("budget", org.hamcrest.Matchers.nullValue());
        admin().body(Map.of("amount", "100", "policy", "hard"))
                .put("/api/v1/accounting/accounts/ac-allot/budget")
                .then()
                .statusCode(200);

        // Who may set it, and what is refused: nothing is written.
        as(ann).body(Map.of("amount", "1")).put(ALLOT + "/ac.ann").then().statusCode(403);
        as(sam).body(Map.of("amount", "1")).put(ALLOT + "/ac.ann").then().statusCode(403);
        as(sam).get(ALLOT).then().statusCode(403);
        as(lee).body(Map.of("amount", "ten"))
                .put(ALLOT + "/ac.ann")
                .then()
                .statusCode(400)
                .contentType(org.hamcrest.Matchers.startsWith("application/problem+json"))
                .body("errors.field", org.hamcrest.Matchers.contains("amount"));
        as(lee).body(Map.of("amount", "100.5"))
                .put(ALLOT + "/ac.ann")
                .then()
                .statusCode(400)
                .body("errors.message", hasItem("at most the budget's amount of 100"));
        as(lee).body(Map.of("amount", "1")).put(ALLOT + "/ac.sam").then().statusCode(404);
        assertThat(Db.count("SELECT count(*) FROM budget_allotments l JOIN accounts a ON a.id = l.account_id"
                        + " WHERE a.slug = 'ac-allot'"))
                .isZero();

        as(lee).body(Map.of("amount", "1"))
                .put(ALLOT + "/ac.ann")
                .then()
                .statusCode(200)
                .body("user", equalTo("ac.ann"))
                .body("amountMicros", equalTo(1_000_000))
                .body("spentMicros", equalTo(0))
                .body("leftMicros", equalTo(1_000_000));
        assertThat(Db.count("SELECT count(*) FROM audit_log WHERE action = 'allotment.set'"
                        + " AND target_id = 'ac-allot/ac.ann' AND after ->> 'amount' = '1'"))
                .isEqualTo(1);

        // 10.24 projected against 1 left of ann's allotment: hers waits; bob has none and starts at once.
        String hers = Flows.submit(ann, "ac-allot", job("hers", 2, "2h"));
        String his = Flows.submit(bob, "ac-allot", job("his", 1, "1h"));
        try {
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                JsonPath j =
                        as(ann).get("/api/v1/jobs/" + hers).then().extract().jsonPath();
                assertThat(j.getString("job.state")).isEqualTo("Queued");
                Map<String, Object> n = j.getMap("job.reasons.find { it.code == 'AllotmentExhausted' }.numbers");
                assertThat(n).isNotNull();
                assertThat(((Number) n.get("remainingMicros")).longValue()).isEqualTo(1_000_000L);
                assertThat(((Number) n.get("projectedMicros")).longValue()).isEqualTo(10_240_000L);
                assertThat(((Number) n.get("allotmentMicros")).longValue()).isEqualTo(1_000_000L);
                assertThat(j.getList("job.reasons.code", String.class)).doesNotContain("BudgetExhausted");
            });
            as(ann).get("/api/v1/jobs/" + hers + "/wait")
                    .then()
                    .statusCode(200)
                    .body("estimate.startBy", org.hamcrest.Matchers.nullValue())
                    .body("estimate.unknown.code", equalTo("WaitsForAllotment"));
            Flows.awaitRunning(bob, his);

            // A member sees only their own row; the admin every member's.
            as(ann).get(ALLOT).then().statusCode(200).body("items.user", org.hamcrest.Matchers.contains("ac.ann"));
            as(lee).get(ALLOT)
                    .then()
                    .statusCode(200)
                    .body("budget.amountMicros", equalTo(100_000_000))
                    .body("allottedMicros", equalTo(1_000_000))
                    .body("items.user", org.hamcrest.Matchers.contains("ac.ann", "ac.bob", "ac.lee"))
                    .body("items.find { it.user == 'ac.bob' }.amountMicros", org.hamcrest.Matchers.nullValue());

            // A larger allotment lets the next round start it.
            as(lee).body(Map.of("amount", "20")).put(ALLOT + "/ac.ann").then().statusCode(200);
            Flows.awaitRunning(ann, hers);
        } finally {
            as(ann).post("/api/v1/jobs/" + hers + "/stop");
            as(bob).post("/api/v1/jobs/" + his + "/stop");
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "Stopped".equals(Flows.state(ann, hers)) && "Stopped".equals(Flows.state(bob, his)));
        settle();

        // What ann spent is exactly her jobs' charges in the ledger; bob's are not hers.
        JsonPath ledger = as(lee).get("/api/v1/accounting/accounts/ac-allot/ledger")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        long annCharged = -ledger
                .getList(
                        "items.findAll { it.user == 'ac.ann' && (it.kind == 'charge' || it.kind == 'refund') }"
                                + ".amountMicros",
                        Long.class)
                .stream()
                .mapToLong(Long::longValue)
                .sum();
        assertThat(annCharged).isPositive();
        JsonPath mine = as(ann).get(ALLOT).then().statusCode(200).extract().jsonPath();
        assertThat(mine.getLong("items[0].spentMicros")).isEqualTo(annCharged);
        assertThat(mine.getLong("items[0].leftMicros")).isEqualTo(20_000_000 - annCharged);

        // Past 100 % of a smaller allotment: she is told once in the period, however many runs follow.
        as(lee).body(Map.of("amount", "0.000001")).put(ALLOT + "/ac.ann").then().statusCode(200);
        settle();
        settle();
        List<Map<String, Object>> told = as(ann).get("/api/v1/me/notifications")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.findAll { it.kind == 'allotment.threshold' }.args");
        assertThat(told).hasSize(1);
        assertThat(told.get(0)).containsEntry("account", "ac-allot").containsEntry("percent", 100);

        as(ann).delete(ALLOT + "/ac.ann").then().statusCode(403);
        as(lee).delete(ALLOT + "/ac.ann").then().statusCode(204);
        as(lee).get(ALLOT).then().body("items.find { it.user == 'ac.ann' }.amount", org.hamcrest.Matchers.nullValue());
        assertThat(Db.count("SELECT count(*) FROM audit_log WHERE action = 'allotment.remove'"
                        + " AND target_id = 'ac-allot/ac.ann'"))
                .isEqualTo(1);
        admin().get("/api/v1/accounting/check")
                .then()
                .statusCode(200)
                .body("sum", equalTo(0))
                .body("mismatched", org.hamcrest.Matchers.empty());
    }

    /**
     * The debt renewal through settlement: an account that overspent opens its next period at the amount less the
     * debt, one that did not loses its rest; the ledger still balances.
     */
    @Test
    @Order(10)
    void aDebtRenewalCarriesADebtAndExpiresARest() throws Exception {
        Flows.account("ac-debt", List.of(line("cpu", "4", "4")), "ac.ann");
        Flows.account("ac-rest", List.of(line("cpu", "4", "4")));
        for (String slug : List.of("ac-debt", "ac-rest")) {
            admin().body(Map.of("amount", "10", "policy", "soft", "renewal", "debt"))
                    .put("/api/v1/accounting/accounts/" + slug + "/budget")
                    .then()
                    .statusCode(200)
                    .body("budget.renewal", equalTo("debt"));
        }
        // ac-debt overspends: 1 device of a model at 5 per hour, held 3 hours yesterday, is charged 15.
        Instant start = Instant.now().minus(Duration.ofHours(27));
        try (Connection c = Db.connection();
                java.sql.Statement s = c.createStatement()) {
            s.execute("INSERT INTO prices (resource, micros_per_hour, effective_from, created_by) VALUES"
                    + " ('debt-model', 5000000, '2020-01-01T00:00:00Z', 'test')");
            held(s, "jdebt1", "ac-debt", "ac.ann", "debt-model", 1000, start, Duration.ofHours(3));
        }
        settle();
        assertThat(balance("ac-debt")).isEqualTo(-5_000_000L);
        assertThat(balance("ac-rest")).isEqualTo(10_000_000L);

        // Their period ended: the next run renews them.
        try (Connection c = Db.connection();
                java.sql.Statement s = c.createStatement()) {
            s.execute("UPDATE budgets SET period_start = (date_trunc('month', now() AT TIME ZONE 'UTC')"
                    + " - interval '1 month') AT TIME ZONE 'UTC', period_end = date_trunc('month', now() AT TIME"
                    + " ZONE 'UTC') AT TIME ZONE 'UTC' WHERE account_id IN (SELECT id FROM accounts WHERE slug IN"
                    + " ('ac-debt', 'ac-rest'))");
        }
        settle();
        settle();
        assertThat(balance("ac-debt")).as("10 issued, the debt of 5 paid back").isEqualTo(5_000_000L);
        assertThat(balance("ac-rest")).as("the rest of 10 expired, 10 issued").isEqualTo(10_000_000L);
        assertThat(kinds("ac-debt")).as("newest first: no expiry of a debt").startsWith("issue 10000000", "charge");
        assertThat(kinds("ac-rest")).startsWith("issue 10000000", "expire -10000000", "issue 10000000");
        admin().get("/api/v1/accounting/check")
                .then()
                .statusCode(200)
                .body("sum", equalTo(0))
                .body("mismatched", org.hamcrest.Matchers.empty());
    }

    /**
     * A custom period: 90 local days from the day the budget is set, renewed for the next 90 when they are over;
     * its length is checked, and changing it starts a new period.
     */
    @Test
    @Order(11)
    void aCustomPeriodRunsItsDaysAndRenewsForAsMany() throws Exception {
        Flows.account("ac-grant", List.of(line("cpu", "4", "4")));
        String path = "/api/v1/accounting/accounts/ac-grant/budget";
        admin().body(Map.of("amount", "100", "period", "custom"))
                .put(path)
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("days"));
        admin().body(Map.of("amount", "100", "period", "month", "days", 30))
                .put(path)
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("days"));
        admin().body(Map.of("amount", "100", "period", "custom", "days", 367))
                .put(path)
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("days"));
        admin().get(path).then().statusCode(200).body("budget", org.hamcrest.Matchers.nullValue());

        java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        admin().body(Map.of("amount", "100", "period", "custom", "days", 90))
                .put(path)
                .then()
                .statusCode(200)
                .body("budget.period", equalTo("custom"))
                .body("budget.periodDays", equalTo(90))
                .body("budget.periodStart", equalTo(today + "T00:00:00Z"))
                .body("budget.periodEnd", equalTo(today.plusDays(90) + "T00:00:00Z"))
                .body("balanceMicros", equalTo(100_000_000));

        // The 90 days are over: the next run starts the next 90 where they ended, and renews the amount.
        java.time.LocalDate began = today.minusDays(95);
        try (Connection c = Db.connection();
                java.sql.Statement s = c.createStatement()) {
            s.execute("UPDATE budgets SET period_start = '" + began + "T00:00:00Z', period_end = '"
                    + began.plusDays(90) + "T00:00:00Z' WHERE account_id = (SELECT id FROM accounts"
                    + " WHERE slug = 'ac-grant')");
        }
        settle();
        admin().get(path)
                .then()
                .statusCode(200)
                .body("budget.periodStart", equalTo(began.plusDays(90) + "T00:00:00Z"))
                .body("budget.periodEnd", equalTo(began.plusDays(180) + "T00:00:00Z"))
                .body("balanceMicros", equalTo(100_000_000));
        assertThat(kinds("ac-grant")).startsWith("issue 100000000", "expire -100000000", "issue 100000000");

        // Another length starts a new period from today.
        admin().body(Map.of("amount", "100", "period", "custom", "days", 30))
                .put(path)
                .then()
                .statusCode(200)
                .body("budget.periodDays", equalTo(30))
                .body("budget.periodEnd", equalTo(today.plusDays(30) + "T00:00:00Z"));
    }

    /**
     * A finished job {@code job} of {@code user} in {@code account} that held {@code milli} of {@code resource} for
     * {@code length} from {@code start}, not charged yet: the next settlement charges it.
     */
    static void held(
            java.sql.Statement s,
            String job,
            String account,
            String user,
            String resource,
            long milli,
            Instant start,
            Duration length)
            throws java.sql.SQLException {
        s.execute("INSERT INTO jobs (public_id, account_id, user_id, name, kind, state) SELECT '" + job
                + "', a.id, u.id, '" + job + "', 'custom', 'Succeeded' FROM accounts a, users u WHERE a.slug = '"
                + account + "' AND u.username = '" + user + "'");
        s.execute("INSERT INTO usage_intervals (job_id, account_id, user_id, resource, milli, backfill, started_at,"
                + " ended_at, charged_until) SELECT id, account_id, user_id, '" + resource + "', " + milli
                + ", false, '"
                + start + "', '" + start.plus(length) + "', '" + start + "' FROM jobs WHERE public_id = '" + job + "'");
    }

    static long balance(String slug) {
        return admin().get("/api/v1/accounting/accounts/" + slug + "/budget")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getLong("balanceMicros");
    }

    /** The account's ledger entries, newest first, as {@code kind amount} (charges as their kind only). */
    static List<String> kinds(String slug) {
        JsonPath l = admin().get("/api/v1/accounting/accounts/" + slug + "/ledger")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < l.getList("items").size(); i++) {
            String kind = l.getString("items[" + i + "].kind");
            out.add(kind.equals("charge") ? kind : kind + " " + l.getLong("items[" + i + "].amountMicros"));
        }
        return out;
    }

    @jakarta.inject.Inject
    PriceSeed priceSeed;

    @jakarta.inject.Inject
    com.fasterxml.jackson.databind.ObjectMapper json;

    List<String> seed(String declared) throws Throwable {
        var prices = PriceSeed.prices(java.util.Optional.of(declared), json);
        return io.quarkus.vertx.VertxContextSupport.subscribeAndAwait(
                () -> io.quarkus.hibernate.reactive.panache.Panache.withTransaction(() -> priceSeed.apply(prices)));
    }

    static Map<String, Object> currentPrice(String resource) {
        List<Map<String, Object>> current = admin().get("/api/v1/accounting/prices")
                .then()
                .statusCode(200)
                .extract()
                .path("current");
        return current.stream()
                .filter(p -> resource.equals(p.get("resource")))
                .findFirst()
                .orElse(null);
    }

    /**
     * Prices a deployment declares (the chart's {@code accounting.prices}): set while the resource has none or the
     * current one was declared too; once a platform admin sets one, the declaration no longer touches it.
     */
    @Test
    @Order(12)
    void declaredPricesApplyUntilAnAdminSetsOne() throws Throwable {
        assertThat(seed("{\"prices\": [{\"resource\": \"seed-card\", \"pricePerHour\": \"1.2\"}]}"))
                .containsExactly("seed-card");
        assertThat(currentPrice("seed-card"))
                .containsEntry("microsPerHour", 1_200_000)
                .containsEntry("by", "crater:seed");
        assertThat(seed("{\"prices\": [{\"resource\": \"seed-card\", \"pricePerHour\": \"1.2\"}]}"))
                .as("the same declaration again")
                .isEmpty();
        Thread.sleep(5);
        assertThat(seed("{\"prices\": [{\"resource\": \"seed-card\", \"pricePerHour\": \"1.5\"}]}"))
                .as("a changed declaration")
                .containsExactly("seed-card");
        assertThat(currentPrice("seed-card")).containsEntry("microsPerHour", 1_500_000);
        assertThat(Db.count("SELECT count(*) FROM audit_log WHERE action = 'price.set' AND target_id = 'seed-card'"
                        + " AND actor = 'crater:seed'"))
                .isEqualTo(2);

        admin().body(Map.of("resource", "seed-card", "pricePerHour", "2"))
                .post("/api/v1/accounting/prices")
                .then()
                .statusCode(201);
        assertThat(seed("{\"prices\": [{\"resource\": \"seed-card\", \"pricePerHour\": \"1.7\"}]}"))
                .as("an admin's price stands")
                .isEmpty();
        assertThat(currentPrice("seed-card"))
                .containsEntry("microsPerHour", 2_000_000)
                .containsEntry("by", "admin");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PriceSeed.prices(
                        java.util.Optional.of("{\"prices\": [{\"resource\": \"a b\", \"pricePerHour\": \"-1\"},"
                                + " {\"resource\": \"cpu\", \"pricePerHour\": \"1\"},"
                                + " {\"resource\": \"cpu\", \"pricePerHour\": \"2\"}]}"),
                        json))
                .hasMessageContaining("prices[0].resource")
                .hasMessageContaining("prices[0].pricePerHour")
                .hasMessageContaining("prices[2].resource: cpu is declared twice");
    }
}
