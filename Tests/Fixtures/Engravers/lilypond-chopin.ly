\version "2.24.1"
\header { title = "Nocturne – Ноктюрн" composer = "Frédéric Chopin (1810-1849)" arranger = "arr. Дмитрий Шостакович" poet = "Words by 李白" }
\relative c'' { c4 d e f g1 }
