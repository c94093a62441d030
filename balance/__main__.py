from balance.cli import main

main()
