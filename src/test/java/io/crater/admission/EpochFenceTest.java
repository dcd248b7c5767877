package io.crater.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.platform.Leadership;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The epoch fence every leader loop's transaction begins with ({@link Leadership#fenced()}): while this replica's
 * epoch is the current one its writes commit; once another replica has moved the epoch (as one taking the Lease over
 * does) they are refused before anything is written, and the admission round stands down.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class EpochFenceTest {

    @Inject
    AdmissionService admission;

    /** A leader loop's transaction: the fence, then one write; whether the write is there afterwards. */
    boolean fencedWrite(String probe) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> admission
                .fenced()
                .flatMap(x -> Sql.rows(
                        "INSERT INTO leader_epochs (name, epoch, holder) VALUES (?1, 0, 'probe') RETURNING name",
                        probe))));
        return Db.count("SELECT count(*) FROM leader_epochs WHERE name = '" + probe + "'") == 1;
    }

    static void execute(String sql) throws Exception {
        try (Connection c = Db.connection();
                Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    @Test
    void aReplicaWhoseEpochMovedWritesNothingAndStandsDown() throws Throwable {
        await().atMost(Duration.ofSeconds(60)).until(admission::leading);
        assertThat(fencedWrite("fence-probe-1"))
                .as("the leader's write commits")
                .isTrue();
        try {
            execute("UPDATE leader_epochs SET epoch = epoch + 1, holder = 'another-replica' WHERE name = 'admission'");
            Throwable refused = catchThrowable(() -> fencedWrite("fence-probe-2"));
            assertThat(Leadership.Fenced.in(refused))
                    .as("refused by the fence: " + refused)
                    .isTrue();
            assertThat(Db.count("SELECT count(*) FROM leader_epochs WHERE name = 'fence-probe-2'"))
                    .as("nothing written")
                    .isZero();
            // The next admission round meets the fence too and stops leading.
            admission.wake();
            await().atMost(Duration.ofSeconds(30)).until(() -> !admission.leading());
            assertThat(Leadership.Fenced.in(catchThrowable(() -> fencedWrite("fence-probe-3"))))
                    .as("a replica that does not lead is refused")
                    .isTrue();
        } finally {
            // As when the elector hands this replica the Lease again: it takes a new epoch.
            admission.startLeading();
            execute("DELETE FROM leader_epochs WHERE name LIKE 'fence-probe-%'");
        }
        assertThat(admission.leading()).isTrue();
        assertThat(fencedWrite("fence-probe-4"))
                .as("the new epoch's write commits")
                .isTrue();
        execute("DELETE FROM leader_epochs WHERE name LIKE 'fence-probe-%'");
    }

    /**
     * An API server that refuses the Lease's renewals for longer than the renew deadline (a control plane restarting):
     * the leader stops leading; once the API server serves again, the replica joins the election again and leads with
     * a new epoch, although fabric8's elector ends for good when it loses the Lease.
     */
    @Test
    void aLeaderWhoseRenewalsFailStopsAndLeadsAgainOnceTheyPass() throws Throwable {
        await().atMost(Duration.ofSeconds(60)).until(admission::leading);
        long before = Db.count("SELECT epoch FROM leader_epochs WHERE name = 'admission'");
        var outages = CraterTestResource.simulator().outages();
        outages.fail(new io.crater.sim.apiserver.Outages.Rule(
                java.util.Set.of("PUT", "PATCH", "POST"), "leases", "crater-server"));
        try {
            await().atMost(Duration.ofSeconds(40)).until(() -> !admission.leading());
            assertThat(Leadership.Fenced.in(catchThrowable(() -> fencedWrite("fence-probe-5"))))
                    .as("nothing written while not leading")
                    .isTrue();
        } finally {
            outages.end();
        }
        await().atMost(Duration.ofSeconds(60)).until(admission::leading);
        assertThat(Db.count("SELECT epoch FROM leader_epochs WHERE name = 'admission'"))
                .as("a new epoch")
                .isGreaterThan(before);
        assertThat(fencedWrite("fence-probe-6")).isTrue();
        execute("DELETE FROM leader_epochs WHERE name LIKE 'fence-probe-%'");
    }
}
