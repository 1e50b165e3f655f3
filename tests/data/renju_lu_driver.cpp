// Reads lines of 225 chars ('X' black, 'O' white, '.' empty; row 1 first, a..o within a row)
// and prints the forbidden points as x,y pairs (x = column, y = row, 0-based).
#include "ForbiddenPointFinder.h"  // with its protected: and private: made public:
#include <iostream>
#include <string>
struct F : public CForbiddenPointFinder {
  void load(const std::string& s) {
    Clear();
    for (int y = 0; y < BOARDSIZE; y++) for (int x = 0; x < BOARDSIZE; x++) {
      char c = s[y * BOARDSIZE + x];
      if (c != '.') SetStone(x, y, c);
    }
  }
  void run() {
    for (int x = 0; x < BOARDSIZE; x++) for (int y = 0; y < BOARDSIZE; y++) {
      if (cBoard[x+1][y+1] != EMPTYSTONE) continue;
      const char* why = nullptr;
      if (IsFive(x, y, 0)) continue;
      if (IsOverline(x, y)) why = "overline";
      else if (IsDoubleFour(x, y)) why = "double-four";
      else if (IsDoubleThree(x, y)) why = "double-three";
      if (why) std::cout << x << "," << y << "," << why << " ";
    }
    std::cout << "\n";
  }
};
int main() {
  F f; std::string line;
  while (std::getline(std::cin, line)) { f.load(line); f.run(); }
}
