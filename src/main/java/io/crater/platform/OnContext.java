package io.crater.platform;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs reactive database work from whichever thread a request is on. On the event loop it joins the request's
 * context; on a worker thread (a {@code @Blocking} endpoint, its filters and its error mappers) Hibernate
 * Reactive needs a Vert.x context of its own, which this provides.
 */
public final class OnContext {

    private OnContext() {}

    public static <T> Uni<T> run(Supplier<Uni<T>> work) {
        if (Context.isOnEventLoopThread()) {
            return work.get();
        }
        return Uni.createFrom().emitter(em -> {
            AtomicReference<T> item = new AtomicReference<>();
            VertxContextSupport.subscribe(
                    () -> work.get().toMulti(), s -> s.with(item::set, em::fail, () -> em.complete(item.get())));
        });
    }
}
