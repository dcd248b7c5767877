package io.crater.identity;

import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A user as the API shows them; {@code gid} is the primary group a directory gave them (null for local users, whose
 * personal jobs run with their personal account's group).
 */
@Schema(name = "ManagedUser")
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
        String defaultAccount,
        Integer gid) {}
