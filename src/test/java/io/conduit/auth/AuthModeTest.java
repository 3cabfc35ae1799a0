package io.conduit.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.LaunchMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which mode is in force, and what a principal may see. */
class AuthModeTest {

    @Test
    void prodWithNoModeRefusesToStartSayingWhatToSet() {
        assertThatThrownBy(() -> Authenticator.resolve(Optional.empty(), LaunchMode.NORMAL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("conduit.auth.mode").hasMessageContaining("CONDUIT_AUTH_MODE=api-key")
                .hasMessageContaining("CONDUIT_AUTH_MODE=none");
        assertThat(Authenticator.resolve(Optional.of(AuthMode.NONE), LaunchMode.NORMAL)).isEqualTo(AuthMode.NONE);
        assertThat(Authenticator.resolve(Optional.of(AuthMode.API_KEY), LaunchMode.NORMAL)).isEqualTo(AuthMode.API_KEY);
    }

    @Test
    void devAndTestsDefaultToNone() {
        assertThat(Authenticator.resolve(Optional.empty(), LaunchMode.DEVELOPMENT)).isEqualTo(AuthMode.NONE);
        assertThat(Authenticator.resolve(Optional.empty(), LaunchMode.TEST)).isEqualTo(AuthMode.NONE);
    }

    @Test
    void aUserSeesItsOwnAnAdminAndTheAnonymousPrincipalEverything() {
        Principal ada = Principal.user("ada", false);
        assertThat(ada.sees(Map.of("owner", "ada"))).isTrue();
        assertThat(ada.sees(Map.of("owner", "bo"))).isFalse();
        assertThat(ada.sees(Map.of())).isFalse();
        assertThat(Principal.user("root", true).sees(Map.of("owner", "bo"))).isTrue();
        assertThat(Principal.ANONYMOUS.sees(Map.of("owner", "bo"))).isTrue();
        assertThat(ada.stamp(Map.of("owner", "bo", "k", 1))).containsEntry("owner", "ada").containsEntry("k", 1);
        assertThat(Principal.ANONYMOUS.stamp(Map.of("k", 1))).isEqualTo(Map.of("k", 1));
        assertThat(ada.narrow(Map.of("owner", "bo"))).isEqualTo(Map.of("owner", "ada"));
    }

    @Test
    void theStoresUsersNamespacesAreTheirUsers() {
        Principal ada = Principal.user("ada", false);
        assertThat(ada.mayUse(List.of("users", "ada", "notes"))).isTrue();
        assertThat(ada.mayUse(List.of("users", "bo"))).isFalse();
        assertThat(ada.mayUse(List.of("users"))).isFalse();
        assertThat(ada.mayUse(List.of("shared", "bo"))).isTrue();
        assertThat(ada.narrowPrefix(List.of("users"))).isEqualTo(List.of("users", "ada"));
        assertThat(ada.narrowPrefix(List.of("users", "bo"))).isNull();
        assertThat(Principal.user("root", true).narrowPrefix(List.of("users"))).isEqualTo(List.of("users"));
    }

    @Test
    void aKeyHashIsSha256InHex() {
        assertThat(ApiKeys.hash("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(ApiKeys.newKey()).startsWith("cdt_").isNotEqualTo(ApiKeys.newKey());
    }
}
