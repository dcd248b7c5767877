package io.crater.identity;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Sign-in through OpenID Connect providers (Keycloak, Dex, Entra ID, Google, a university's SSO): any number,
 * each under its own short name, each a button on the console's sign-in page. docs/identity.md describes every key.
 */
@ConfigMapping(prefix = "crater.oidc")
public interface OidcConfig {

    /** The providers by short name ({@code [a-z0-9-]}, 1 to 32): memberships they grant are marked {@code oidc:<name>}. */
    Map<String, Provider> providers();

    /** How long a sign-in started at a provider may take to come back. */
    @WithDefault("10m")
    Duration loginTimeout();

    /** One provider. */
    interface Provider {

        /** The button's label on the sign-in page; the name when unset. */
        Optional<String> displayName();

        /** The issuer: its {@code /.well-known/openid-configuration} is read, and ID tokens must name it as {@code iss}. */
        String issuer();

        /** Crater's client id at the provider; ID tokens must name it in {@code aud}. */
        String clientId();

        /** The client secret (a confidential client); never logged or shown. Unset: a public client (PKCE only). */
        Optional<String> clientSecret();

        /** The scopes asked for, {@code openid} among them. */
        @WithDefault("openid profile email")
        String scopes();

        /** Which claims give the user's name, display name, e-mail and groups. */
        Claims claims();

        /** Group mappings, as for a directory: members of a group get a role in a team account. */
        Map<String, LdapConfig.GroupMapping> groups();

        /**
         * Link a user who has no link yet to the existing Crater user with the same e-mail address, when the
         * provider says the address is verified ({@code email_verified}). Off: a name or an e-mail alone never
         * takes over an existing user.
         */
        @WithDefault("false")
        boolean linkByEmail();

        /** The clock difference tolerated on {@code exp} and {@code iat}. */
        @WithDefault("60s")
        Duration clockSkew();
    }

    /** Claim names. */
    interface Claims {

        @WithDefault("preferred_username")
        String username();

        @WithDefault("name")
        String displayName();

        @WithDefault("email")
        String email();

        /** A claim holding a list of group names (or one name). */
        @WithDefault("groups")
        String groups();
    }
}
