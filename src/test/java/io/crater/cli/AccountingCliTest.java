package io.crater.cli;

import static io.crater.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.TestAuth;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.List;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code crater usage}, {@code budget}, {@code ledger} and {@code price} against the running server. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class AccountingCliTest {

    @TestHTTPResource("/")
    URL base;

    Cli cli;

    @BeforeEach
    void signIn() {
        cli = new Cli().server(base.toString()).token(TestAuth.adminToken());
    }

    @Test
    void aBudgetIsSetToppedUpOnceAndShownWithItsLedger() {
        Api.user("accli-m", "accli-m-password");
        Flows.account("accli-lab", List.of(Flows.line("cpu", "8", "16")), "accli-m");
        Cli.Run set = cli.run(
                "budget",
                "set",
                "accli-lab",
                "--amount",
                "500",
                "--period",
                "month",
                "--policy",
                "hard",
                "--renewal",
                "reset");
        assertThat(set.exit()).as(set.toString()).isZero();
        assertThat(cli.run("budget", "set", "accli-lab", "--amount", "600").exit())
                .isZero();
        admin().get("/api/v1/accounting/accounts/accli-lab/budget")
                .then()
                .body("budget.amountMicros", Matchers.is(600_000_000))
                .body("budget.policy", Matchers.is("hard"));

        for (int i = 0; i < 2; i++) {
            Cli.Run top = cli.run(
                    "budget", "top-up", "accli-lab", "20", "--note", "grant 42", "--idempotency-key", "accli-key-1");
            assertThat(top.exit()).as(top.toString()).isZero();
            assertThat(top.err()).contains("idempotency key accli-key-1");
        }
        admin().get("/api/v1/accounting/accounts/accli-lab/budget")
                .then()
                .body("balanceMicros", Matchers.is(620_000_000));

        for (String lang : List.of("en", "zh-CN")) {
            cli.env("CRATER_LANG", lang);
            Golden.assertMatches(
                    "budget-show." + lang + ".txt",
                    CliText.normalise(cli.run("budget", "show", "accli-lab").out()));
            assertThat(cli.run("ledger", "accli-lab", "-o", "wide").out())
                    .containsPattern("\\d+\\s+\\S+Z\\s+issue\\s+20.00 points\\s+620.00 points\\s+grant 42");
        }
        cli.env("CRATER_LANG", null);
        Cli.Run ledger = cli.run("ledger", "accli-lab", "-o", "json");
        Golden.assertMatches(
                "ledger.json", CliText.json(ledger.out(), CraterTestResource.initialAdmin()[0], "<ADMIN>"));
        assertThat(Values.items(ledger.json()).stream().map(e -> Values.text(e, "kind")))
                .containsExactly("issue", "adjust", "issue");
        assertThat(Values.items(cli.run("ledger", "accli-lab", "--max-items", "1", "-o", "json")
                        .json()))
                .hasSize(1);

        Cli m = new Cli().server(base.toString()).token(Api.login("accli-m", "accli-m-password"));
        assertThat(m.run("budget", "show", "-a", "accli-lab").out()).contains("Balance: 620.00 points");
        Cli.Run denied = m.run("budget", "top-up", "accli-lab", "1000");
        assertThat(denied.exit()).isEqualTo(Exit.DENIED);
        assertThat(denied.err()).contains("only a platform admin may");
        Cli.Run bad = cli.run("budget", "set", "accli-lab", "--policy", "sometimes");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("policy");
        admin().get("/api/v1/accounting/accounts/accli-lab/budget")
                .then()
                .body("balanceMicros", Matchers.is(620_000_000))
                .body("budget.policy", Matchers.is("hard"));
    }

    @Test
    void pricesAreListedAndSetFromATimeOn() {
        Cli.Run set = cli.run("price", "set", "ascend-910b", "3.5", "--from", "1000d");
        assertThat(set.exit()).as(set.toString()).isZero();
        assertThat(set.out()).contains("ascend-910b", "device-hour", "3.50 points");
        Cli.Run history = cli.run("price", "list", "--history", "-o", "json");
        assertThat(Values.items(history.json()))
                .anySatisfy(p -> assertThat(Values.at(p, "microsPerHour")).isEqualTo(3_500_000));
        Cli.Run current = cli.run("price", "list");
        assertThat(current.out().lines().findFirst().orElseThrow())
                .matches("RESOURCE\\s+UNIT\\s+PRICE/UNIT-HOUR\\s+FROM");
        assertThat(current.out()).doesNotContain("3.50 points");

        Cli.Run past = cli.run("price", "set", "ascend-910b", "3", "--from", "2d ago");
        assertThat(past.exit()).isEqualTo(Exit.USAGE);
        Cli.Run bad = cli.run("price", "set", "ascend-910b", "cheap");
        assertThat(bad.exit()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("pricePerHour");
        Cli m = new Cli().server(base.toString()).token(Api.user("accli-p", "accli-p-password"));
        Cli.Run denied = m.run("price", "set", "ascend-910b", "1");
        assertThat(denied.exit()).isEqualTo(Exit.DENIED);
        assertThat(denied.err()).contains("only a platform admin may set prices");
        assertThat(m.run("price", "list", "-o", "json").exit()).isZero();
    }

    @Test
    void usageIsReportedForTheAccountAndBadSpansAreRefused() {
        Flows.account("accli-use", List.of(Flows.line("cpu", "8", "16")));
        Cli.Run table = cli.run("usage", "-a", "accli-use", "--by", "user");
        assertThat(table.exit()).as(table.toString()).isZero();
        assertThat(table.out()).contains("Usage of accli-use from", "Nothing was held in this span.", "Total: 0.00");
        Cli.Run json = cli.run(
                "usage", "-a", "accli-use", "--by", "day", "--from", "2026-01-01", "--to", "2026-01-08", "-o", "json");
        assertThat(Values.text(json.json(), "by")).isEqualTo("day");
        assertThat(Values.text(json.json(), "from")).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(Values.list(Values.at(json.json(), "rows"))).isEmpty();
        Cli.Run cluster = cli.run("usage", "--by", "account", "-o", "json");
        assertThat(cluster.exit()).as(cluster.toString()).isZero();
        assertThat(Values.at(cluster.json(), "account")).isNull();

        Cli.Run by = cli.run("usage", "-a", "accli-use", "--by", "colour");
        assertThat(by.exit()).isEqualTo(Exit.USAGE);
        assertThat(by.err()).contains("by: one of resource, user, day, month, account");
        Cli.Run backwards = cli.run("usage", "-a", "accli-use", "--from", "2026-02-01", "--to", "2026-01-01");
        assertThat(backwards.exit()).isEqualTo(Exit.USAGE);
        assertThat(backwards.err()).contains("from: must be before to");
        assertThat(cli.run("usage", "--from", "2026-13-01").err()).contains("is not a time");
    }

    @Test
    void aClosedMonthsStatementIsListedAndShownWithItsLines() throws Exception {
        Api.user("accli-sm", "accli-sm-password");
        Flows.account("accli-stmt", List.of(Flows.line("cpu", "8", "16")), "accli-sm");
        assertThat(cli.run("statement", "-a", "accli-stmt").out()).contains("No statement yet");
        java.time.YearMonth last =
                java.time.YearMonth.now(java.time.ZoneOffset.UTC).minusMonths(1);
        java.time.Instant start = last.atDay(3).atTime(8, 0).toInstant(java.time.ZoneOffset.UTC);
        try (java.sql.Connection c = io.crater.Db.connection();
                java.sql.Statement s = c.createStatement()) {
            s.execute("INSERT INTO jobs (public_id, account_id, user_id, name, kind, state)"
                    + " SELECT 'jaccli1', a.id, u.id, 'stmt', 'custom', 'Succeeded' FROM accounts a, users u"
                    + " WHERE a.slug = 'accli-stmt' AND u.username = 'accli-sm'");
            s.execute("INSERT INTO usage_intervals (job_id, account_id, user_id, resource, milli, backfill, started_at,"
                    + " ended_at, charged_until) SELECT id, account_id, user_id, 'cpu', 4000, false, '" + start
                    + "', '" + start.plus(java.time.Duration.ofHours(2)) + "', '" + start
                    + "' FROM jobs WHERE public_id = 'jaccli1'");
        }
        admin().post("/api/v1/accounting/settle").then().statusCode(200);

        Cli.Run list = cli.run("statement", "-a", "accli-stmt");
        assertThat(list.exit()).as(list.toString()).isZero();
        assertThat(list.out()).containsPattern(last + "\\s+0 points\\s+0 points\\s+0 points\\s+0 points");
        Cli.Run one = cli.run("statement", last.toString(), "-a", "accli-stmt");
        assertThat(one.exit()).as(one.toString()).isZero();
        assertThat(one.out())
                .contains("Statement of accli-stmt for " + last + ": opening 0 points, issued 0 points")
                .containsPattern("accli-sm\\s+cpu\\s+8.00 core-hours\\s+-\\s+0 points");
        assertThat(Values.text(
                        Values.at(
                                cli.run("statement", last.toString(), "-a", "accli-stmt", "-o", "json")
                                        .json(),
                                "summary"),
                        "period"))
                .isEqualTo(last.toString());

        Cli.Run bad = cli.run("statement", "last-month", "-a", "accli-stmt");
        assertThat(bad.exit()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("period: a month such as 2026-11");
        Cli.Run member = new Cli()
                .server(base.toString())
                .token(io.crater.Api.login("accli-sm", "accli-sm-password"))
                .run("statement", "-a", "accli-stmt");
        assertThat(member.exit()).isEqualTo(Exit.DENIED);
        assertThat(member.err()).contains("only the account's admins may read its statements");
    }
}
