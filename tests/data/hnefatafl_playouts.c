/* Random playouts of Copenhagen hnefatafl by ftzm/hnefatafl's libhnefatafl, for
 * comparison with Myriad.  Per ply: the move played, the pieces it took, the number of
 * legal moves before it and an FNV-1a hash of the sorted legal moves with their captures
 * (each "from-to" plus "x"+square per capture in index order, in Myriad's square names).
 * Per game: the final status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api.h"
void init_move_globals();

static const char FILES[] = "kjihgfedcba";
static void name(int pos, char *out) { sprintf(out, "%c%d", FILES[pos % 11], pos / 11 + 1); }
static int bit(layer l, int i) { return (int)((l._[i / 64] >> (i % 64)) & 1); }
static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static const char *STATUS[] = {"ongoing", "king_captured", "white_surrounded", "no_white_moves", "king_escaped",
                               "exit_fort", "no_black_moves", "draw_offered", "white_resigned", "black_resigned"};
static unsigned long long rng = 1;
static unsigned next_rand(void) { rng = rng * 6364136223846793005ULL + 1442695040888963407ULL; return (unsigned)(rng >> 33); }

static void describe(move_with_captures *m, char *out) {
  char a[4], b[4], c[4];
  name(m->move.orig, a); name(m->move.dest, b);
  sprintf(out, "%s-%s", a, b);
  for (int i = 0; i < 121; i++) if (bit(m->captures, i)) { name(i, c); strcat(out, "x"); strcat(out, c); }
}

int main(int argc, char **argv) {
  init_move_globals();
  int games = argc > 1 ? atoi(argv[1]) : 10, maxply = argc > 2 ? atoi(argv[2]) : 300;
  for (int g = 0; g < games; g++) {
    rng = 1000 + g;
    move hist[1000];
    int n = 0;
    printf("game %d\n", g);
    for (;;) {
      move_with_captures *moves = NULL; int count = 0; game_status gs = status_ongoing; move_validation_result v; move_result last;
      next_game_state_with_moves(hist, n, &moves, &count, &gs, &v, true, &last);
      if (v.error) { printf("error %d\n", v.error); break; }
      if (gs != status_ongoing || count == 0 || n >= maxply) {
        printf("end %s %d\n", count == 0 && gs == status_ongoing ? "no_moves" : STATUS[gs], n);
        free(moves);
        break;
      }
      char **texts = malloc(sizeof(char *) * count);
      for (int i = 0; i < count; i++) { texts[i] = malloc(64); describe(&moves[i], texts[i]); }
      int pick = next_rand() % count;
      char chosen[64]; strcpy(chosen, texts[pick]);
      qsort(texts, count, sizeof(char *), cmp);
      if (getenv("DUMP")) { for (int i = 0; i < count; i++) fprintf(stderr, "%s ", texts[i]); fprintf(stderr, "\n"); }
      unsigned h = 2166136261u;
      for (int i = 0; i < count; i++) {
        for (char *p = texts[i]; *p; p++) { h ^= (unsigned char)*p; h *= 16777619u; }
        h ^= ' '; h *= 16777619u;
        free(texts[i]);
      }
      free(texts);
      printf("%s %d %08x\n", chosen, count, h);
      hist[n++] = moves[pick].move;
      free(moves);
    }
  }
  return 0;
}
