// Oracle driver (not part of Myriad): reads "<32 chess numbers> <colour>" lines and prints
// the legal (from,to) pairs the TCGA homework Referee accepts, as "from-to" location numbers.
#define private public
#include "MyAI.h"  // hw1/src/MyAI.h of the kit (see make_banqi_cdc.py)
#undef private
#include <iostream>
#include <sstream>
#include <string>
int main() {
    MyAI ai;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        int board[32];
        for (int i = 0; i < 32; i++) in >> board[i];
        int colour; in >> colour;
        bool first = true;
        for (int f = 0; f < 32; f++) {
            if (board[f] < 0 || board[f] / 7 != colour) continue;
            for (int t = 0; t < 32; t++) {
                if (t == f) continue;
                if (ai.Referee(board, f, t, colour)) {
                    std::cout << (first ? "" : " ") << f << "-" << t;
                    first = false;
                }
            }
        }
        std::cout << "\n";
    }
}
