package io.crater.identity;

import io.crater.platform.Actor;

/** Who is calling: the signed-in user and the client address, for checks and the audit trail. */
public record Caller(TokenService.TokenUser user, String clientAddress) {

    public boolean platformAdmin() {
        return "admin".equals(user.role());
    }

    public long userId() {
        return user.id();
    }

    public Actor actor(String account) {
        return new Actor(user.id(), user.username(), clientAddress, account);
    }
}
