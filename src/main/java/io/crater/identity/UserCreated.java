package io.crater.identity;

import io.smallrye.mutiny.Uni;

/**
 * What other features do when a user is created, in the same transaction: the account feature gives every new
 * user a personal account. Identity calls each implementation and knows none of them.
 */
public interface UserCreated {

    Uni<?> userCreated(long userId, String userSlug, String displayName);
}
