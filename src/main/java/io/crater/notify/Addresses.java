package io.crater.notify;

import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.Map;

/**
 * Where a user's mail goes and how it greets them. Users are identity's, which builds on notifications, so
 * notifications ask through this interface and {@code identity} answers it.
 */
public interface Addresses {

    /** A user's e-mail address (null: none) and the name a mail greets them by. */
    record Address(String email, String name) {}

    /** The addresses of the users with these ids (unknown ids are left out), in the caller's session. */
    Uni<Map<Long, Address>> of(Collection<Long> userIds);
}
