package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Which borrowing jobs are taken back for an account within its guarantee. */
class ReclaimTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    static final String H100 = "nvidia-h100-80gb";
    static final String GPU = "nvidia.com/gpu";
    static final Map<String, String> SEL = Map.of("nvidia.com/gpu.product", "H100");

    static NodeCapacity node(String name, int used) {
        return new NodeCapacity(name, SEL, Resources.of(GPU, 8000), Resources.of(GPU, used * 1000L), true);
    }

    static Reclaim.Running running(String job, long account, String node, int gpus, boolean borrowing, int minutesAgo) {
        return new Reclaim.Running(
                job,
                account,
                Resources.of(H100, gpus * 1000L),
                Map.of(node, Resources.of(GPU, gpus * 1000L)),
                borrowing,
                NOW.minus(Duration.ofMinutes(minutesAgo)),
                false);
    }

    static Map<String, QuotaLine> line(long guaranteed, long used) {
        return Map.of(H100, new QuotaLine(H100, guaranteed * 1000, 16_000, 0, used * 1000));
    }

    static Reclaim.Claim claim(long account, int gpus) {
        return new Reclaim.Claim(
                "claim",
                account,
                Resources.of(H100, gpus * 1000L),
                List.of(new PodDemand("p", Resources.of(GPU, gpus * 1000L), SEL)));
    }

    static List<String> victims(Reclaim.Plan p) {
        return p.victims().stream().map(Reclaim.Running::job).toList();
    }

    @Test
    void theNewestBorrowingJobOfTheAccountFurthestAboveItsGuaranteeGoesFirst() {
        var nodes = List.of(node("n1", 8), node("n2", 8));
        var accounts = Map.of(1L, line(0, 8), 2L, line(4, 8), 3L, line(8, 0));
        var plan = Reclaim.plan(
                nodes,
                accounts,
                List.of(
                        running("a-old", 1, "n1", 4, true, 60),
                        running("a-new", 1, "n1", 4, true, 5),
                        running("b-new", 2, "n2", 4, true, 1),
                        running("b-own", 2, "n2", 4, false, 90)),
                claim(3, 4),
                NOW,
                Duration.ZERO);
        assertThat(victims(plan)).containsExactly("a-new");
        assertThat(plan.placement()).containsEntry("p", "n1");
    }

    @Test
    void backfillJobsGoFirstAndForAnyClaimantEvenAboveItsGuarantee() {
        var nodes = List.of(node("n1", 8), node("n2", 8));
        var backfill = new Reclaim.Running(
                "bf",
                1,
                Resources.of(H100, 4000),
                Map.of("n2", Resources.of(GPU, 4000)),
                false,
                NOW.minusSeconds(60),
                true);
        var plan = Reclaim.plan(
                nodes,
                Map.of(1L, line(0, 8), 3L, line(2, 8)),
                List.of(running("a", 1, "n1", 8, true, 60), running("b", 3, "n2", 4, false, 60), backfill),
                claim(3, 4),
                NOW,
                Duration.ZERO);
        assertThat(victims(plan)).containsExactly("bf");
        assertThat(plan.placement()).containsEntry("p", "n2");
    }

    @Test
    void neverANonBorrowingJobNorOneYoungerThanTheMinimumRunTime() {
        var nodes = List.of(node("n1", 8));
        var accounts = Map.of(1L, line(0, 8), 3L, line(8, 0));
        var plan = Reclaim.plan(
                nodes,
                accounts,
                List.of(running("young", 1, "n1", 4, true, 2), running("mine", 1, "n1", 4, false, 60)),
                claim(3, 4),
                NOW,
                Duration.ofMinutes(10));
        assertThat(plan.found()).isFalse();
    }

    @Test
    void nobodyIsStoppedWhenItWouldNotBeEnoughOrTheClaimantIsAboveItsGuarantee() {
        var nodes = List.of(node("n1", 8));
        var plan = Reclaim.plan(
                nodes,
                Map.of(1L, line(0, 2), 3L, line(8, 0)),
                List.of(running("small", 1, "n1", 2, true, 60), running("other", 2, "n1", 6, false, 60)),
                claim(3, 8),
                NOW,
                Duration.ZERO);
        assertThat(plan.found()).isFalse();
        var above = Reclaim.plan(
                nodes,
                Map.of(1L, line(0, 8), 3L, line(2, 0)),
                List.of(running("a", 1, "n1", 8, true, 60)),
                claim(3, 4),
                NOW,
                Duration.ZERO);
        assertThat(above.found()).isFalse();
    }

    /**
     * Any mix of borrowing and non-borrowing jobs on two nodes: a plan never names a non-borrowing job or one of
     * the claimant's account, and once its victims are gone the claimant's pod fits.
     */
    @Property(tries = 300)
    void victimsAreBorrowersAndMakeEnoughRoom(
            @ForAll @IntRange(min = 0, max = 8) int a1,
            @ForAll @IntRange(min = 0, max = 8) int a2,
            @ForAll boolean borrowing1,
            @ForAll boolean borrowing2,
            @ForAll @IntRange(min = 1, max = 8) int want) {
        List<Reclaim.Running> jobs = new ArrayList<>();
        if (a1 > 0) {
            jobs.add(running("j1", 1, "n1", a1, borrowing1, 30));
        }
        if (a2 > 0) {
            jobs.add(running("j2", 2, "n2", a2, borrowing2, 20));
        }
        var nodes = List.of(node("n1", a1), node("n2", a2));
        Map<Long, Map<String, QuotaLine>> accounts = new HashMap<>();
        accounts.put(1L, line(0, a1));
        accounts.put(2L, line(0, a2));
        accounts.put(3L, line(8, 0));
        var plan = Reclaim.plan(nodes, accounts, jobs, claim(3, want), NOW, Duration.ZERO);
        for (Reclaim.Running v : plan.victims()) {
            assertThat(v.borrowing()).isTrue();
            assertThat(v.account()).isNotEqualTo(3L);
        }
        if (plan.found()) {
            List<NodeCapacity> after = new ArrayList<>();
            for (NodeCapacity n : nodes) {
                Resources used = n.used();
                for (Reclaim.Running v : plan.victims()) {
                    used = used.minus(v.perNode().getOrDefault(n.name(), Resources.NONE));
                }
                after.add(n.withUsed(used));
            }
            assertThat(Placement.placeGang(after, claim(3, want).pods()).placed())
                    .isTrue();
            assertThat(Placement.placeGang(nodes, claim(3, want).pods()).placed())
                    .as("nobody is stopped when the claim fits already")
                    .isFalse();
        } else {
            // It fits already, or even stopping every borrower would not make room.
            boolean fitsNow = 8 - a1 >= want || 8 - a2 >= want;
            boolean possible = (borrowing1 && 8 >= want) || (borrowing2 && 8 >= want);
            assertThat(fitsNow || !possible).isTrue();
        }
    }
}
