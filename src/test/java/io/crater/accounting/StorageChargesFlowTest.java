package io.crater.accounting;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What file spaces hold is charged to who pays for them, by the GiB-hour: a team account for its space, a user's
 * personal account (with the user named) for the user's own space; a window is charged once it is due, for the mean of
 * the bytes at its two ends, and a space whose folder is gone is charged its last window and forgotten.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class StorageChargesFlowTest {

    static final String PW = "Storage-pass-2026";
    static final long GIB = 1L << 30;

    @Inject
    StorageCharges storage;

    @Test
    void spacesArePricedByTheGibHourAndChargedToTheirPayers() throws Throwable {
        String user = Api.user("st.user", PW);
        String slug =
                as(user).get("/api/v1/me").then().statusCode(200).extract().path("slug");
        admin().body(Map.of("slug", "st-lab", "name", "st-lab")).post("/api/v1/accounts");
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/st-lab/members/st.user")
                .then()
                .statusCode(200);
        admin().body(Map.of("resource", "storage", "pricePerHour", "0.5"))
                .post("/api/v1/accounting/prices")
                .then()
                .statusCode(201)
                .body("unit", org.hamcrest.Matchers.equalTo("GiB-hour"));
        // Prices never start in the past through the API; this test's windows do, so its price is there a day back.
        try (var c = Db.connection();
                Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO prices (resource, micros_per_hour, effective_from, created_by)"
                    + " VALUES ('storage', 500000, now() - interval '1 day', 'test')");
        }
        Path spaces = CraterTestResource.home().resolve("spaces");
        Path team = Files.createDirectories(spaces.resolve("accounts/st-lab"));
        Path own = Files.createDirectories(spaces.resolve("users").resolve(slug));
        sparse(team.resolve("data.bin"), 3 * GIB);
        sparse(own.resolve("own.bin"), GIB);

        // Seen for the first time: charged from now on.
        storage.charge();
        assertThat(charges("st-lab")).isEmpty();
        backdate("account:st-lab", "2 hours");
        backdate("user:" + slug, "2 hours");
        storage.charge();

        // 3 GiB for 2 h (and the few milliseconds of the test) at 0.5 per GiB-hour: 3.
        List<Map<String, Object>> team1 = charges("st-lab");
        assertThat(team1).hasSize(1);
        assertThat(((Number) team1.get(0).get("amountMicros")).longValue()).isBetween(-3_001_000L, -3_000_000L);
        assertThat((String) team1.get(0).get("note")).startsWith("storage of account:st-lab: 3.000 GiB for 2.00 h");
        assertThat(team1.get(0).get("job")).isNull();
        // The user's own 1 GiB is the personal account's, with the user named: the member sees it as theirs.
        List<Map<String, Object>> mine = charges("u-" + slug);
        assertThat(mine).hasSize(1);
        assertThat(((Number) mine.get(0).get("amountMicros")).longValue()).isBetween(-1_001_000L, -1_000_000L);
        assertThat(mine.get(0).get("user")).isEqualTo("st.user");

        // Not due again yet: nothing more.
        storage.charge();
        assertThat(charges("st-lab")).hasSize(1);

        // The team's folder goes away: its last hour is charged for half its last bytes, then it is forgotten.
        backdate("account:st-lab", "1 hour");
        Files.delete(team.resolve("data.bin"));
        Files.delete(team);
        storage.charge();
        List<Map<String, Object>> team2 = charges("st-lab");
        assertThat(team2).hasSize(2);
        assertThat(((Number) team2.get(0).get("amountMicros")).longValue()).isBetween(-751_000L, -750_000L);
        assertThat(Db.count("SELECT count(*) FROM storage_charges WHERE space = 'account:st-lab'"))
                .isZero();
        assertThat(as(user).get("/api/v1/accounting/accounts/st-lab/ledger")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items"))
                .as("a member sees only their own entries, and the team's storage is nobody's job")
                .isEmpty();
        // Free again from now on, for the tests that share this server.
        admin().body(Map.of("resource", "storage", "pricePerHour", "0"))
                .post("/api/v1/accounting/prices")
                .then()
                .statusCode(201);
    }

    static void sparse(Path file, long bytes) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(bytes);
        }
    }

    static void backdate(String space, String by) throws Exception {
        try (var c = Db.connection();
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE storage_charges SET charged_until = now() - interval '" + by
                            + "' WHERE space = '" + space + "'"))
                    .isEqualTo(1);
        }
    }

    /** The account's storage charges, newest first. */
    static List<Map<String, Object>> charges(String account) {
        JsonPath ledger = admin().get("/api/v1/accounting/accounts/" + account + "/ledger")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        return ledger.getList("items.findAll { it.note != null && it.note.startsWith('storage of') }");
    }
}
