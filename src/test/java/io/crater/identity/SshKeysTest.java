package io.crater.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SshKeysTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "hello",
                "ssh-ed25519 not-base64!",
                "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA",
                "ecdsa-sha2-nistp256 AAAA you@host"
            })
    void aLineThatIsNoPublicKeyGetsOneFriendlyMessage(String line) {
        ApiException e = catchThrowableOfType(ApiException.class, () -> SshKeys.parse(line));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("InvalidSshKey");
        assertThat(e.getMessage())
                .isEqualTo("not an OpenSSH public key: expected a line like `ssh-ed25519 AAAA… comment`"
                        + " (the contents of ~/.ssh/id_ed25519.pub)");
        assertThat(e.errors()).extracting(Problem.FieldError::field).containsExactly("publicKey");
    }

    @Test
    void aPrivateKeyIsRefusedWithItsOwnWarning() {
        ApiException e =
                catchThrowableOfType(ApiException.class, () -> SshKeys.parse("-----BEGIN OPENSSH PRIVATE KEY-----"));
        assertThat(e.getMessage()).contains("never a private key");
    }

    @Test
    void aRealKeyIsParsedWithItsFingerprint() throws Exception {
        // RSA rather than Ed25519: a Quarkus test earlier in the same JVM registers BouncyCastle from its own class
        // loader, whose EdDSA keys this plain test cannot cast; the flow tests register Ed25519 keys through the API.
        var kp = KeyPairGenerator.getInstance("RSA");
        kp.initialize(3072);
        var pub = (java.security.interfaces.RSAPublicKey) kp.generateKeyPair().getPublic();
        byte[] type = "ssh-rsa".getBytes(StandardCharsets.US_ASCII);
        byte[] e = pub.getPublicExponent().toByteArray();
        byte[] n = pub.getModulus().toByteArray();
        ByteBuffer b = ByteBuffer.allocate(12 + type.length + e.length + n.length);
        b.putInt(type.length).put(type).putInt(e.length).put(e).putInt(n.length).put(n);
        String line = "ssh-rsa " + Base64.getEncoder().encodeToString(b.array()) + " me@laptop";
        SshKeys.Parsed parsed = SshKeys.parse(line);
        assertThat(parsed.type()).isEqualTo("ssh-rsa");
        assertThat(parsed.fingerprint()).startsWith("SHA256:");
    }
}
