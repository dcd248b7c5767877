package io.crater.identity;

import java.time.Instant;

/** A user as the API shows them. */
public record UserView(
        long id,
        String username,
        String slug,
        int uid,
        String displayName,
        String email,
        String role,
        boolean disabled,
        Instant createdAt,
        String defaultAccount) {}
