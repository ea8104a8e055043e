import { Controller, Get, Render } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth.decorators';

/** Server-rendered pages (hbs). The merchant dashboard grows here. */
@ApiExcludeController()
@Public()
@Controller()
export class HomeController {
  @Get()
  @Render('home')
  home() {
    return { title: 'Home' };
  }
}
