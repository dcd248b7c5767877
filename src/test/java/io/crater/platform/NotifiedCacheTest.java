package io.crater.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cache in front of rarely written rows: what it answers from memory, what it forgets on a notification, and the
 * races of a load with an invalidation. The "database" is a map; each load reads it when it starts and answers when
 * the test lets it, so the order of reads, writes and notifications is the test's.
 */
class NotifiedCacheTest {

    final Map<String, String> db = new HashMap<>();
    /** The loads begun and not answered yet, in order: each answers what it read when it began. */
    final List<Runnable> pending = new ArrayList<>();

    final List<String> reads = new ArrayList<>();
    final AtomicBoolean inTransaction = new AtomicBoolean();
    NotifiedCache<String, String> cache;

    Uni<String> read(String key) {
        reads.add(key);
        String value = db.get(key);
        CompletableFuture<String> answer = new CompletableFuture<>();
        pending.add(() -> {
            if ("broken".equals(value)) {
                answer.completeExceptionally(new IllegalStateException("connection reset"));
            } else {
                answer.complete(value);
            }
        });
        return Uni.createFrom().completionStage(answer);
    }

    @BeforeEach
    void listening() {
        cache = new NotifiedCache<>("test", Set.of("accounts"), 3, this::read, inTransaction::get);
        cache.resume();
        db.put("a", "a1");
        db.put("b", "b1");
    }

    UniAssertSubscriber<String> ask(String key) {
        return cache.get(key).subscribe().withSubscriber(UniAssertSubscriber.create());
    }

    /** Asks and lets every load begun so far answer. */
    String get(String key) {
        UniAssertSubscriber<String> s = ask(key);
        answerAll();
        return s.awaitItem().getItem();
    }

    void answerAll() {
        List<Runnable> now = new ArrayList<>(pending);
        pending.clear();
        now.forEach(Runnable::run);
    }

    @Test
    void aValueIsReadOnceThenAnsweredFromMemory() {
        assertThat(get("a")).isEqualTo("a1");
        assertThat(get("a")).isEqualTo("a1");
        assertThat(get("b")).isEqualTo("b1");
        assertThat(reads).containsExactly("a", "b");
        assertThat(cache.hits()).isEqualTo(1);
        assertThat(cache.loads()).isEqualTo(2);
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void anInvalidationMakesTheNextReadSeeTheChange() {
        get("a");
        db.put("a", "a2");
        assertThat(get("a")).as("no notification yet: memory answers").isEqualTo("a1");
        cache.invalidate();
        assertThat(cache.size()).isZero();
        assertThat(get("a")).isEqualTo("a2");
        assertThat(reads).containsExactly("a", "a");
    }

    @Test
    void aLoadBegunBeforeAnInvalidationDoesNotStoreItsValue() {
        UniAssertSubscriber<String> early = ask("a"); // reads a1 ...
        db.put("a", "a2"); // ... a write commits and its notification arrives before that read answers
        cache.invalidate();
        answerAll();
        assertThat(early.awaitItem().getItem())
                .as("the caller that asked before the change")
                .isEqualTo("a1");
        assertThat(cache.size()).as("the older value is not kept").isZero();
        assertThat(get("a")).isEqualTo("a2");
        assertThat(get("a")).isEqualTo("a2");
        assertThat(reads).containsExactly("a", "a");
    }

    @Test
    void aMissAfterAnInvalidationDoesNotJoinALoadBegunBeforeIt() {
        UniAssertSubscriber<String> early = ask("a");
        db.put("a", "a2");
        cache.invalidate();
        UniAssertSubscriber<String> late = ask("a");
        assertThat(reads).as("a second read, not the first one's answer").containsExactly("a", "a");
        // The older read answers last: it must neither reach the later caller nor overwrite the newer value.
        Runnable older = pending.remove(0);
        pending.get(0).run();
        older.run();
        assertThat(early.awaitItem().getItem()).isEqualTo("a1");
        assertThat(late.awaitItem().getItem()).isEqualTo("a2");
        assertThat(get("a")).isEqualTo("a2");
        assertThat(reads).hasSize(2);
    }

    @Test
    void concurrentMissesOfOneKeyShareOneLoad() {
        UniAssertSubscriber<String> first = ask("a");
        UniAssertSubscriber<String> second = ask("a");
        UniAssertSubscriber<String> other = ask("b");
        assertThat(reads).containsExactly("a", "b");
        answerAll();
        assertThat(first.awaitItem().getItem()).isEqualTo("a1");
        assertThat(second.awaitItem().getItem()).isEqualTo("a1");
        assertThat(other.awaitItem().getItem()).isEqualTo("b1");
        assertThat(cache.loads()).isEqualTo(2);
        assertThat(get("a")).isEqualTo("a1");
        assertThat(reads).hasSize(2);
    }

    @Test
    void aFailedLoadReachesItsWaitersAndIsNotKept() {
        db.put("a", "broken");
        UniAssertSubscriber<String> first = ask("a");
        UniAssertSubscriber<String> second = ask("a");
        answerAll();
        first.awaitFailure().assertFailedWith(IllegalStateException.class, "connection reset");
        second.awaitFailure().assertFailedWith(IllegalStateException.class, "connection reset");
        db.put("a", "a1");
        assertThat(get("a")).isEqualTo("a1");
        assertThat(reads).containsExactly("a", "a");
    }

    @Test
    void anAbsentValueIsNotKept() {
        assertThat(get("missing")).isNull();
        assertThat(get("missing")).isNull();
        assertThat(reads).containsExactly("missing", "missing");
        assertThat(cache.size()).isZero();
    }

    @Test
    void pastItsCapacityItForgetsEverythingAndLearnsAgain() {
        db.put("c", "c1");
        db.put("d", "d1");
        get("a");
        get("b");
        get("c");
        assertThat(cache.size()).isEqualTo(3);
        get("d");
        assertThat(cache.size()).as("never more than its capacity").isEqualTo(1);
        get("a");
        get("d");
        assertThat(reads).containsExactly("a", "b", "c", "d", "a");
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void whileNotificationsMayBeMissedNothingIsKept() {
        get("a");
        cache.pause(); // the listening connection is lost
        assertThat(cache.size()).isZero();
        db.put("a", "a2");
        assertThat(get("a")).isEqualTo("a2");
        db.put("a", "a3");
        assertThat(get("a")).as("nothing was kept while not listening").isEqualTo("a3");
        cache.resume();
        assertThat(get("a")).isEqualTo("a3");
        assertThat(get("a")).isEqualTo("a3");
        assertThat(reads).containsExactly("a", "a", "a", "a");
    }

    @Test
    void aLoadBegunBeforeTheConnectionWasLostDoesNotStore() {
        UniAssertSubscriber<String> early = ask("a");
        cache.pause();
        cache.resume(); // listening again: a change may have been missed meanwhile
        answerAll();
        assertThat(early.awaitItem().getItem()).isEqualTo("a1");
        assertThat(cache.size()).isZero();
    }

    @Test
    void beforeItFirstListensNothingIsKept() {
        NotifiedCache<String, String> fresh =
                new NotifiedCache<>("fresh", Set.of("accounts"), 3, this::read, () -> false);
        fresh.get("a").subscribe().withSubscriber(UniAssertSubscriber.create());
        fresh.get("a").subscribe().withSubscriber(UniAssertSubscriber.create());
        assertThat(reads).containsExactly("a", "a");
        answerAll();
        assertThat(fresh.size()).isZero();
    }

    @Test
    void insideATransactionItReadsTheDatabaseAndKeepsNothing() {
        get("a");
        inTransaction.set(true);
        db.put("a", "a2"); // the transaction's own write, not committed (so not notified)
        assertThat(get("a")).isEqualTo("a2");
        inTransaction.set(false); // rolled back
        db.put("a", "a1");
        assertThat(get("a")).as("memory still holds the committed value").isEqualTo("a1");
        assertThat(reads).containsExactly("a", "a");
    }

    @Test
    void aCacheHoldsAtLeastOneValue() {
        assertThatThrownBy(() -> new NotifiedCache<String, String>("none", Set.of(), 0, this::read, () -> false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theStatementsThatWriteACachedTableAreFound() {
        var writes = CacheInvalidations.writing(Set.of("accounts", "account_members", "quotas"));
        assertThat(CacheInvalidations.written(writes, "UPDATE accounts SET archived_at = now() WHERE id = ?1"))
                .containsExactly("accounts");
        assertThat(CacheInvalidations.written(
                        writes,
                        "WITH d AS (DELETE FROM quotas WHERE account_id = ?1) INSERT INTO account_members (account_id)"
                                + " VALUES (?1)"))
                .containsExactly("account_members", "quotas");
        assertThat(CacheInvalidations.written(writes, "insert into accounts (slug) values (?1)"))
                .containsExactly("accounts");
        assertThat(CacheInvalidations.written(
                        writes, "SELECT a.id FROM accounts a JOIN account_members m ON m.account_id = a.id"))
                .isEmpty();
        assertThat(CacheInvalidations.written(writes, "UPDATE accounts_archive SET x = 1"))
                .isEmpty();
        assertThat(CacheInvalidations.written(writes, "INSERT INTO jobs (account_id) SELECT id FROM accounts"))
                .isEmpty();
    }
}
